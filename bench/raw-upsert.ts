import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { timedLoops } from './processes.ts';

/**
 * The write baseline: the bare upsert that keeps one record per device and challenge with the best score, sent
 * straight through the same driver (Kysely on PGlite or pg) by `concurrency` loops for `durationS` seconds.
 */
export async function measureRawUpserts(options: {
  databaseUrl: string | null;
  dataDir: string;
  challengeId: string;
  concurrency: number;
  durationS: number;
}): Promise<{ rps: number; p50: number; p99: number }> {
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: path.resolve(options.dataDir), poolSize: 10 });
  try {
    return await timedLoops(options.concurrency, options.durationS, () =>
      database.db
        .insertInto('challenge_completion')
        .values({
          id: randomUUID(),
          device_id: `raw-${randomUUID()}`,
          challenge_id: options.challengeId,
          score: Math.round(Math.random() * 100),
          completed_at: new Date(),
        })
        .onConflict((oc) =>
          oc
            .columns(['device_id', 'challenge_id'])
            .doUpdateSet((eb) => ({ score: eb.ref('excluded.score'), completed_at: eb.ref('excluded.completed_at') }))
            .whereRef('challenge_completion.score', '<', 'excluded.score'),
        )
        .returning(['id', 'score', 'completed_at'])
        .executeTakeFirst(),
    );
  } finally {
    await database.close();
  }
}
