import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { bumpDataVersion, readDataVersion } from '../kernel/data-version.ts';

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
    state.current = await readDataVersion(app.db);
  };
  await read();
  let polling = false;
  // The poll is the instance's view of the database: an outage is logged once when it starts and once when it ends,
  // not on every poll or every failed request.
  let down = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    read()
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
    state.current = await bumpDataVersion(app.db, app.clock());
    return state.current;
  });
}

export default fp(dataVersion, { name: 'collecte-data-version' });
