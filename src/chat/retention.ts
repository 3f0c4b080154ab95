import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { deleteConversationsIdleSince } from './repository.ts';
import { repeating, type Ticking } from '../kernel/repeating.ts';

/**
 * The chat's retention (docs/operating.md, chat retention), started beside the requests' worker (REMINDERS_WORKER):
 * every hour, the conversations with no activity for CHAT_RETENTION_DAYS are deleted with their messages, in batches
 * of RETENTION_BATCH, one transaction each, until a batch comes back short. Every instance may run one: a batch skips the rows
 * another holds (repository.ts, deleteConversationsIdleSince). The chat counts (`chat_count`, the analytics) stay:
 * they name no conversation and no device.
 */

const TICK_MS = 3_600_000;
export const RETENTION_BATCH = 500;

export interface ChatRetentionOptions {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Conversations deleted per transaction (RETENTION_BATCH). */
  batch?: number;
}

/** `tick`: one pass, answering how many conversations it deleted. */
export type ChatRetention = Ticking<number>;

export function createChatRetention(options: ChatRetentionOptions): ChatRetention {
  const { db, config, log } = options;
  const now = options.now ?? (() => new Date());
  const batch = options.batch ?? RETENTION_BATCH;
  let stopping = false;

  const tick = async (): Promise<number> => {
    const before = new Date(now().getTime() - config.chatRetentionDays * 86_400_000);
    let deleted = 0;
    for (;;) {
      const n = await deleteConversationsIdleSince(db, before, batch);
      deleted += n;
      // A stop waits for one batch at most; the next start goes on where this one stopped.
      if (n < batch || stopping) break;
    }
    // PGlite has no autovacuum: the space of what went is reused, and the planner's statistics stay true.
    if (deleted > 0) await sql`VACUUM (ANALYZE) conversation, message, ticket`.execute(db);
    return deleted;
  };

  const repeat = repeating(tick, TICK_MS, {
    passed: (deleted) => {
      if (deleted > 0) log.info({ chat: { deleted } }, 'chat: retention deleted idle conversations');
    },
    failed: (err) => log.warn({ err }, 'chat: the retention pass failed; the next one tries again'),
  });
  return {
    start() {
      stopping = false;
      repeat.start();
    },
    tick,
    async stop() {
      stopping = true;
      await repeat.stop();
    },
  };
}
