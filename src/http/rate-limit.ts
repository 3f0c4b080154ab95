import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './errors.ts';
import { connectRedis, createRedis } from './redis.ts';
import { memoryWindows, redisWindows, type RateWindows, type WindowCount } from './rate-windows.ts';

/** Chat: conversation creation and message sending share 20 requests per minute per device (CONTRACT section 2). */
export const CHAT_LIMIT = { max: 20, windowMs: 60_000 };

/** What a client learns about its budget once its request is counted. */
export interface RateVerdict {
  /** The X-RateLimit-* header lines, name then value. */
  headers: string[];
  exceeded: boolean;
  /** Seconds until the window resets, at least 1: the Retry-After of a 429. */
  retryAfterS: number;
}

/** Counts one request for a key: synchronous in memory, a promise with Redis (a network round trip). */
type Limiter = (key: string) => RateVerdict | Promise<RateVerdict>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one chat request for `key` (a deviceId; the client IP when none applies), sets the
     * X-RateLimit-* headers of the chat limit, and throws 429 past the limit.
     */
    chatRateLimit(request: FastifyRequest, reply: FastifyReply, key: string | null): Promise<void>;
    /** The general limit per client IP on every /public request (see request-entry.ts); null when RATE_LIMIT_MAX=0. */
    publicRateLimit: ((request: FastifyRequest) => RateVerdict | Promise<RateVerdict>) | null;
  }
}

const TOO_MANY = 'Trop de requêtes : réessayez dans quelques instants.';

/** A limiter of `max` requests per `windowMs` and key; X-RateLimit-Reset is in Unix seconds. */
function limiter(windows: RateWindows, max: number, windowMs: number): Limiter {
  const limit = String(max);
  const verdict = ({ current, ttlMs }: WindowCount): RateVerdict => {
    const resetIn = Math.max(Math.ceil(ttlMs / 1000), 0);
    return {
      headers: [
        'x-ratelimit-limit', limit,
        'x-ratelimit-remaining', String(Math.max(0, max - current)),
        'x-ratelimit-reset', String(Math.floor(Date.now() / 1000) + resetIn),
      ],
      exceeded: current > max,
      retryAfterS: Math.max(resetIn, 1),
    };
  };
  return (key) => {
    const count = windows.hit(key, windowMs);
    return count instanceof Promise ? count.then(verdict) : verdict(count);
  };
}

/** Writes a verdict's headers on the reply. */
export function setRateHeaders(reply: FastifyReply, verdict: RateVerdict): void {
  const { headers } = verdict;
  for (let i = 0; i < headers.length; i += 2) reply.header(headers[i], headers[i + 1]);
}

/** The contract's 429, with its Retry-After. */
export function tooManyRequests(verdict: RateVerdict): ApiError {
  return new ApiError(429, TOO_MANY, { 'retry-after': String(verdict.retryAfterS) });
}

async function rateLimits(app: FastifyInstance) {
  const { config } = app;
  const client = config.redisUrl ? createRedis(config.redisUrl, app.log) : null;
  if (client) {
    await connectRedis(client.redis);
    app.addHook('onClose', async () => client.close());
  }
  // Fail open: while Redis errors, requests are served and counted again once it is back.
  const windows = () => (client ? redisWindows(client.redis, `${config.redisKeyPrefix}rate-limit:`) : memoryWindows());

  const chat = limiter(windows(), CHAT_LIMIT.max, CHAT_LIMIT.windowMs);
  app.decorate('chatRateLimit', async (request: FastifyRequest, reply: FastifyReply, key: string | null) => {
    const verdict = await chat(`chat:${key ?? `ip:${request.ip}`}`);
    setRateHeaders(reply, verdict);
    if (verdict.exceeded) throw tooManyRequests(verdict);
  });

  const general = config.rateLimitMax > 0 ? limiter(windows(), config.rateLimitMax, config.rateLimitWindowS * 1000) : null;
  app.decorate('publicRateLimit', general && ((request: FastifyRequest) => general(`ip:${request.ip}`)));
}

export default fp(rateLimits, { name: 'collecte-rate-limits' });
