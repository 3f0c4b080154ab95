import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * A Redis client for shared counters that never holds a request up. Commands fail at once while Redis is away (no
 * offline queue) and it keeps reconnecting in the background; a Redis that is connected but does not answer (stalled,
 * or a route to it lost) is noticed by the caller's short wait (`markStalled`), and then probed until it answers.
 * `available` says whether counting should go to Redis at all; one warning per outage, one info when it is back.
 */
export interface SharedRedis {
  redis: Redis;
  /** False during an outage (error, closed connection, or no answer): counters then live in memory. */
  readonly available: boolean;
  /** A command went unanswered past the caller's wait: an outage until a probe answers. */
  markStalled(): void;
  close(): void;
}

/** How often a stalled Redis is asked whether it answers again. */
const PROBE_MS = 500;

/**
 * The client of an instance whose REDIS_URL is set; ioredis (about 2 MiB of heap) is loaded only then, not by every
 * instance at start.
 */
export async function createRedis(url: string, log: FastifyBaseLogger): Promise<SharedRedis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    lazyConnect: true,
  });
  let down = false;
  let closing = false;
  let probe: NodeJS.Timeout | undefined;
  const markDown = (reason: string) => {
    if (down || closing) return;
    down = true;
    log.warn({ reason }, 'Redis is unreachable: rate limits count in memory until it answers');
  };
  const markUp = () => {
    clearInterval(probe);
    probe = undefined;
    if (!down || closing) return;
    down = false;
    log.info('Redis is back: rate limits are counted in Redis again');
  };
  redis.on('error', (err) => markDown(err.message));
  // A lost connection is an outage even when the reconnection succeeds before any error is seen.
  redis.on('close', () => markDown('connection closed'));
  redis.on('ready', markUp);
  return {
    redis,
    get available() {
      return !down && redis.status === 'ready';
    },
    markStalled() {
      if (down || closing) return;
      markDown('no answer in time');
      probe = setInterval(() => {
        if (redis.status === 'ready') redis.ping().then(markUp, () => {});
      }, PROBE_MS);
      probe.unref();
    },
    close() {
      closing = true;
      clearInterval(probe);
      redis.disconnect();
    },
  };
}

/** Connects, waiting at most a moment; a Redis that is down at start must not stop the service. */
export async function connectRedis(redis: Redis): Promise<void> {
  try {
    await redis.connect();
  } catch {
    // The 'error' listener has logged it; ioredis keeps retrying.
  }
}
