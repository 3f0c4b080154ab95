import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { conversationsChangedAfter, latestConversationChange, type ChangedConversationRow } from './repository.ts';

/**
 * The console's live inbox (GET /chat/events): one poll per instance, never one per agent. While at least one agent
 * listens, the instance asks the database every `intervalMs` which conversations changed (migration 0013's change
 * numbers, moved by every message, assignment and status change, whatever instance wrote it) and hands each to the
 * listeners of its city group. No listener, no query.
 *
 * A change number is taken when a transaction writes, and seen when it commits: a longer transaction can commit a
 * smaller number after a larger one was seen. Each poll therefore looks LOOKBACK numbers behind the largest seen and
 * hands on what it has not handed on yet (a conversation's latest number is remembered until it falls behind).
 */

/** How far behind the largest change number seen each poll looks again (see above). */
export const LOOKBACK = 200;
/** Most rows read by one poll; the next poll goes on from there. */
const BATCH = 500;

export interface InboxListener {
  /** The city groups whose conversations this listener receives. */
  cityGroupIds: ReadonlySet<string>;
  /** One changed conversation (it may come twice: the receiver keeps the latest). */
  changed(row: ChangedConversationRow): void;
}

export interface LiveInboxOptions {
  intervalMs?: number;
  /** A poll failed (the database restarting, say): reported, and the next beat tries again. */
  onError?: (err: unknown) => void;
}

export class LiveInbox {
  private readonly listeners = new Set<InboxListener>();
  private readonly delivered = new Map<string, number>();
  private cursor: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;
  /** Moves each time the poll stops, so that a read begun before does not hand on into the next session. */
  private epoch = 0;
  private readonly intervalMs: number;

  private readonly db: Kysely<DB>;
  private readonly options: LiveInboxOptions;

  constructor(db: Kysely<DB>, options: LiveInboxOptions = {}) {
    this.db = db;
    this.options = options;
    this.intervalMs = options.intervalMs ?? 500;
  }

  get listening(): number {
    return this.listeners.size;
  }

  /**
   * Starts handing changes to `listener` (the poll starts with the first listener). Answers the change number from
   * which it will hand them on (what is at or before it, the inbox list and a catch-up show), and how to stop.
   */
  async listen(listener: InboxListener): Promise<{ since: number; stop: () => void }> {
    if (this.cursor === null) {
      const latest = await latestConversationChange(this.db);
      this.cursor ??= latest;
    }
    const since = this.cursor;
    this.listeners.add(listener);
    if (!this.timer && !this.closed) this.timer = setInterval(() => void this.poll(), this.intervalMs);
    return {
      since,
      stop: () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) this.stop();
      },
    };
  }

  /** One beat: reads what changed and hands it on. Concurrent calls share one read (tests call it too). */
  poll(): Promise<void> {
    this.polling ??= this.read().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async read(): Promise<void> {
    if (this.listeners.size === 0) return;
    try {
      if (this.cursor === null) return;
      const epoch = this.epoch;
      const rows = await conversationsChangedAfter(this.db, this.cursor - LOOKBACK, BATCH);
      // Every listener left (and maybe others came) while reading: the next beat starts afresh.
      if (epoch !== this.epoch || this.cursor === null) return;
      for (const row of rows) {
        if ((this.delivered.get(row.id) ?? 0) >= row.seq) continue;
        this.delivered.set(row.id, row.seq);
        for (const listener of this.listeners) {
          if (listener.cityGroupIds.has(row.city_group_id)) listener.changed(row);
        }
      }
      if (rows.length > 0) this.cursor = Math.max(this.cursor, rows[rows.length - 1].seq);
      for (const [id, seq] of this.delivered) if (seq < this.cursor - LOOKBACK) this.delivered.delete(id);
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.epoch++;
    // Listening again later starts from that moment, as the first time.
    this.cursor = null;
    this.delivered.clear();
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stop();
  }
}
