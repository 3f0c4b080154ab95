import type { Redis, Result } from 'ioredis';

/** A key's count in its current window, this request included, and the time left in that window. */
export interface WindowCount {
  current: number;
  ttlMs: number;
}

/**
 * Fixed windows per key: a key's first request opens a window of `windowMs`; every request in it is counted.
 * In memory the answer is synchronous, so that a counted request costs no promise; Redis answers a promise.
 */
export interface RateWindows {
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
}

/**
 * Keys counted at once in memory, at most. Past it the oldest window is forgotten first (its client starts a new
 * budget): a client rotating addresses cannot grow the process without limit.
 */
const MAX_MEMORY_KEYS = 50_000;

/** The windows of one process, in a Map whose order is the windows' start order. */
export function memoryWindows(now: () => number = Date.now): RateWindows {
  const windows = new Map<string, { current: number; startMs: number }>();
  return {
    hit(key, windowMs) {
      const nowMs = now();
      let window = windows.get(key);
      if (!window || window.startMs + windowMs <= nowMs) {
        // A new window goes to the end of the Map, so that the first entry is always the oldest.
        windows.delete(key);
        window = { current: 0, startMs: nowMs };
        windows.set(key, window);
        if (windows.size > MAX_MEMORY_KEYS) windows.delete(windows.keys().next().value!);
      }
      window.current++;
      return { current: window.current, ttlMs: window.startMs + windowMs - nowMs };
    },
  };
}

/** INCR and, for a key without expiry (a new window), PEXPIRE; answers {count, ms left}. One round trip, atomic. */
const HIT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    collecteRateWindow(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

/**
 * Longest a request waits for Redis to count it, by default (REDIS_WAIT_MS). Redis answers in well under a millisecond
 * on a healthy network; past this the request is counted in memory instead and Redis is taken for stalled until it
 * answers a probe, so that a Redis that hangs costs a cached read this much once, not a command timeout on every request.
 */
export const REDIS_WAIT_MS = 20;

/** What redisWindows needs to know of its Redis (see SharedRedis). */
export interface RedisLink {
  redis: Redis;
  readonly available: boolean;
  markStalled(): void;
}

/**
 * Windows shared by every instance through Redis, under `prefix`. While Redis is away or stalled (`available` false),
 * and for a request Redis did not answer within `waitMs`, the count falls back to this process's memory windows:
 * requests are always served, and still limited per instance.
 */
export function redisWindows(link: RedisLink, prefix: string, waitMs = REDIS_WAIT_MS, fallback: RateWindows = memoryWindows()): RateWindows {
  const { redis } = link;
  if (!redis.collecteRateWindow) redis.defineCommand('collecteRateWindow', { numberOfKeys: 1, lua: HIT_SCRIPT });
  return {
    hit(key, windowMs) {
      if (!link.available) return fallback.hit(key, windowMs);
      return new Promise<WindowCount>((resolve) => {
        let settled = false;
        const settle = (count: WindowCount | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(count ?? (fallback.hit(key, windowMs) as WindowCount));
        };
        const timer = setTimeout(() => {
          link.markStalled();
          settle(null);
        }, waitMs);
        redis.collecteRateWindow(prefix + key, windowMs).then(
          ([current, ttlMs]) => settle({ current, ttlMs }),
          () => settle(null),
        );
      });
    },
  };
}
