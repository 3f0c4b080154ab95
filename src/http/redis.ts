import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * A Redis client for shared counters that never holds a request up: commands fail at once while
 * Redis is away (no offline queue), so callers can fail open, and it keeps reconnecting in the background.
 * One warning per outage, one info when it is back.
 */
export function createRedis(url: string, log: FastifyBaseLogger): { redis: Redis; close(): void } {
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
  const markDown = (reason: string) => {
    if (down || closing) return;
    down = true;
    log.warn({ reason }, 'Redis is unreachable: rate limits fail open until it is back');
  };
  redis.on('error', (err) => markDown(err.message));
  // A lost connection is an outage even when the reconnection succeeds before any error is seen.
  redis.on('close', () => markDown('connection closed'));
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is back: rate limits are counted again');
  });
  return {
    redis,
    close() {
      closing = true;
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
