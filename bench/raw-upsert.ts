import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { recordBestCompletion } from '../src/challenges/repository.ts';

/**
 * The write baseline: the very upsert the completion route runs, sent straight through the same driver
 * (Kysely on PGlite or pg) by `concurrency` loops for `durationS` seconds.
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
    const latencies: number[] = [];
    const end = performance.now() + options.durationS * 1000;
    const loop = async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await recordBestCompletion(database.db, {
          deviceId: `raw-${randomUUID()}`,
          challengeId: options.challengeId,
          score: Math.round(Math.random() * 100),
          completedAt: new Date(),
        });
        latencies.push(performance.now() - start);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, loop));
    const elapsedS = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return { rps: latencies.length / elapsedS, p50: at(0.5), p99: at(0.99) };
  } finally {
    await database.close();
  }
}
