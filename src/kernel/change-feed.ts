/**
 * A live feed of the rows a table's change numbers move (a sequence taken by every insert and update, whatever
 * instance wrote it): one poll per instance, never one per listener. While at least one listener listens, the feed
 * asks its source every `intervalMs` which rows changed and hands the new ones to every listener, which keeps those
 * it wants. No listener, no query. The console's inbox and the requests' queues both run on one.
 *
 * A change number is taken when a transaction writes, and seen when it commits: a longer transaction can commit a
 * smaller number after a larger one was seen. Each poll therefore looks LOOKBACK numbers behind the largest seen and
 * hands on what it has not handed on yet (a row's latest number is remembered until it falls behind).
 */

/** How far behind the largest change number seen each poll looks again (see above). */
export const LOOKBACK = 200;
/** Most rows read by one poll; the next poll goes on from there. */
const BATCH = 500;

export interface ChangedRow {
  id: string;
  /** The row's change number. */
  seq: number;
}

export interface ChangeSource<Row extends ChangedRow> {
  /** The largest change number now (0 when there is none). */
  latest(): Promise<number>;
  /** The rows changed after change number `after`, smallest number first, at most `limit`. */
  changedAfter(after: number, limit: number): Promise<Row[]>;
}

/** Receives each poll's new changes (a row may come twice over time: the receiver keeps the latest). */
export type ChangeListener<Row> = (rows: readonly Row[]) => void;

export interface ChangeFeedOptions {
  intervalMs?: number;
  /** A poll failed (the database restarting, say): reported, and the next beat tries again. */
  onError?: (err: unknown) => void;
}

export class ChangeFeed<Row extends ChangedRow> {
  private readonly listeners = new Set<ChangeListener<Row>>();
  private readonly delivered = new Map<string, number>();
  private cursor: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;
  /** Moves each time the poll stops, so that a read begun before does not hand on into the next session. */
  private epoch = 0;
  private readonly intervalMs: number;
  private readonly source: ChangeSource<Row>;
  private readonly options: ChangeFeedOptions;

  constructor(source: ChangeSource<Row>, options: ChangeFeedOptions = {}) {
    this.source = source;
    this.options = options;
    this.intervalMs = options.intervalMs ?? 500;
  }

  get listening(): number {
    return this.listeners.size;
  }

  /**
   * Starts handing changes to `listener` (the poll starts with the first listener). Answers the change number from
   * which it will hand them on (what is at or before it, a list read now and a catch-up show), and how to stop.
   */
  async listen(listener: ChangeListener<Row>): Promise<{ since: number; stop: () => void }> {
    if (this.cursor === null) {
      const latest = await this.source.latest();
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
      const rows = await this.source.changedAfter(this.cursor - LOOKBACK, BATCH);
      // Every listener left (and maybe others came) while reading: the next beat starts afresh.
      if (epoch !== this.epoch || this.cursor === null) return;
      const fresh = rows.filter((row) => (this.delivered.get(row.id) ?? 0) < row.seq);
      for (const row of fresh) this.delivered.set(row.id, row.seq);
      if (fresh.length > 0) {
        for (const listener of this.listeners) {
          try {
            listener(fresh);
          } catch (err) {
            this.options.onError?.(err);
          }
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
