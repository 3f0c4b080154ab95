import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import fp from 'fastify-plugin';
import type { DB } from '../db/types.ts';
import { bumpDataVersion, readDataVersion } from '../db/data-version.ts';

/**
 * How often each instance reads data_version. Every change to public data moves it (the import does it in
 * its own transaction), so every instance serves the new data within this delay plus one recomputation.
 */
const POLL_MS = 400;

/**
 * When public data changes without a write: the first time after `now` at which a scheduled record (a blog post, a
 * page) becomes public, or null when none is scheduled. An area that publishes at a date registers one.
 */
export type PublicationSource = (db: Kysely<DB>, now: Date) => Promise<Date | null>;

/** The data version an instance serves, and when its answers stop being right without any write. */
export interface DataVersionState {
  /** The data version this instance last saw; cached response bodies are keyed by it. */
  current: number;
  /**
   * The latest time (ms) until which a public answer computed at `now` stays right: the next scheduled publication
   * known for the current version (Infinity when none is scheduled), or `now` while that is not known yet (just
   * after a version change, until the schedule is read): such an answer is not kept.
   */
  freshUntil(now: number): number;
  /** A write of this instance moved the version: it is this instance's at once, with the schedule it leaves. */
  adopt(version: number): Promise<void>;
  /** Reads the version, and the schedule when it is stale: what the poll does on each beat (tests call it too). */
  refresh(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly dataVersion: DataVersionState;
    /** Records a change to public data (moves data_version) and makes this instance see it at once. */
    dataChanged(): Promise<number>;
    /** Registers when an area's scheduled records become public (see {@link PublicationSource}). */
    addPublicationSource(source: PublicationSource): void;
  }
}

/**
 * Scheduled publication without a write at its time: every instance reads the next scheduled publication from the
 * database whenever the data version it serves changes (and again once that time has passed), and no public answer
 * computed before it is kept past it (`freshUntil`, used by the response cache). A post scheduled for 10:00 is thus
 * computed again by the first request after 10:00 on every instance, whose query then sees it (`published_at <= now`).
 */
async function dataVersion(app: FastifyInstance) {
  const sources: PublicationSource[] = [];
  /** The version the schedule was read for (-1: never read) and its next publication (ms; null: none). */
  let scheduleVersion = -1;
  let nextPublicationAt: number | null = null;

  const nextPublication = async (now: Date): Promise<number | null> => {
    const times = await Promise.all(sources.map((source) => source(app.db, now)));
    const next = Math.min(...times.filter((t) => t !== null).map((t) => t.getTime()));
    return Number.isFinite(next) ? next : null;
  };

  /** Reads the schedule after `version` was committed: what it finds is that version's or newer, never older. */
  const readSchedule = async (version: number) => {
    const next = await nextPublication(app.clock());
    scheduleVersion = version;
    nextPublicationAt = next;
  };

  const scheduleIsStale = (version: number, now: number) =>
    version !== scheduleVersion || (nextPublicationAt !== null && now >= nextPublicationAt);

  const state: DataVersionState = {
    current: 0,
    freshUntil(now) {
      if (scheduleVersion !== state.current) return now;
      return nextPublicationAt ?? Infinity;
    },
    async adopt(version) {
      if (version <= state.current) return;
      const next = await nextPublication(app.clock());
      // The schedule read after the write committed, and the version, change together.
      if (version <= state.current) return;
      scheduleVersion = version;
      nextPublicationAt = next;
      state.current = version;
    },
    async refresh() {
      const version = await readDataVersion(app.db);
      if (scheduleIsStale(version, app.clock().getTime())) await readSchedule(version);
      state.current = version;
    },
  };

  state.current = await readDataVersion(app.db);
  // The areas register their sources with their routes: the first schedule is read once they all have.
  app.addHook('onReady', async () => state.refresh());

  let polling = false;
  // The poll is the instance's view of the database: an outage is logged once when it starts and once when it ends,
  // not on every poll or every failed request.
  let down = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    state
      .refresh()
      .then(() => {
        if (!down) return;
        down = false;
        app.log.info('the database answers again');
      })
      .catch((err) => {
        if (down) return;
        down = true;
        app.log.warn({ err }, 'the database does not answer: reads the cache holds are served from it, others answer 503');
      })
      .finally(() => {
        polling = false;
      });
  }, POLL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.decorate('dataVersion', state);
  app.decorate('dataChanged', async () => {
    await state.adopt(await bumpDataVersion(app.db, app.clock()));
    return state.current;
  });
  app.decorate('addPublicationSource', (source: PublicationSource) => {
    sources.push(source);
  });
}

export default fp(dataVersion, { name: 'collecte-data-version' });
