import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';

/**
 * How often each instance reads data_version. Every change to public data moves it (the import does it in
 * its own transaction), so every instance serves the new data within this delay plus one recomputation.
 */
const POLL_MS = 400;

declare module 'fastify' {
  interface FastifyInstance {
    /** The data version this instance last saw; cached response bodies are keyed by it. */
    readonly dataVersion: { current: number };
    /** Records a change to public data (moves data_version) and makes this instance see it at once. */
    dataChanged(): Promise<number>;
  }
}

async function dataVersion(app: FastifyInstance) {
  const state = { current: 0 };
  const read = async () => {
    const row = await app.db.selectFrom('data_version').select('version').where('id', '=', 1).executeTakeFirst();
    if (row) state.current = row.version;
  };
  await read();
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    read()
      .catch((err) => app.log.warn({ err }, 'could not read data_version'))
      .finally(() => {
        polling = false;
      });
  }, POLL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.decorate('dataVersion', state);
  app.decorate('dataChanged', async () => {
    const { rows } = await sql<{ version: number }>`
      UPDATE data_version SET version = version + 1, changed_at = ${app.clock().toISOString()} WHERE id = 1 RETURNING version
    `.execute(app.db);
    state.current = rows[0].version;
    return state.current;
  });
}

export default fp(dataVersion, { name: 'collecte-data-version' });
