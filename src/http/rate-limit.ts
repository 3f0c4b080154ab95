import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { errors, type DomainError } from '../kernel/errors.ts';
import { connectRedis, createRedis } from './redis.ts';
import { memoryWindows, redisWindows, type RateWindows, type WindowCount } from './rate-windows.ts';

/** Chat: conversation creation and message sending share 20 requests per minute per device (docs/api.md, rate limits). */
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

/** One named budget: counts a key and tells whether it is spent. */
export type Budget = Limiter;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one chat request for `key` (a deviceId; the client IP when none applies) and for the client IP
     * (CHAT_IP_MAX per minute), sets the X-RateLimit-* headers of the device's limit, and throws 429 past either.
     */
    chatRateLimit(request: FastifyRequest, reply: FastifyReply, key: string | null): Promise<void>;
    /**
     * A budget of `max` per `windowMs` and key, named so that its keys are apart from every other budget's, counted
     * in the same windows as the rate limits (shared through Redis when REDIS_URL is set, failing open like them).
     */
    rateBudget(name: string, max: number, windowMs: number): Budget;
    /**
     * The general limit per client IP (`request.ip`) on every request of audience public, or to an unknown /public URL
     * (request-entry.ts); null when RATE_LIMIT_MAX=0.
     */
    publicRateLimit: ((ip: string | undefined) => RateVerdict | Promise<RateVerdict>) | null;
  }
}


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
export function tooManyRequests(verdict: RateVerdict): DomainError {
  return errors.tooManyRequests(verdict.retryAfterS);
}

async function rateLimits(app: FastifyInstance) {
  const { config } = app;
  const client = config.redisUrl ? await createRedis(config.redisUrl, app.log) : null;
  if (client) {
    await connectRedis(client.redis);
    app.addHook('onClose', async () => client.close());
    app.metricSources.redisAvailable = () => client.available;
  }
  // While Redis is away or stalled, requests are served and counted in memory; in Redis again once it answers.
  const windows = () => (client ? redisWindows(client, `${config.redisKeyPrefix}rate-limit:`, config.redisWaitMs) : memoryWindows());

  const budgets = windows();
  const rateBudget = (name: string, max: number, windowMs: number): Budget => {
    const count = limiter(budgets, max, windowMs);
    return (key) => count(`${name}:${key}`);
  };
  app.decorate('rateBudget', rateBudget);

  const chat = limiter(windows(), CHAT_LIMIT.max, CHAT_LIMIT.windowMs);
  // Rotating device ids must not escape the chat limit: every chat request also counts against its client IP.
  const chatPerIp = rateBudget('chat-ip', config.chatIpMax, CHAT_LIMIT.windowMs);
  app.decorate('chatRateLimit', async (request: FastifyRequest, reply: FastifyReply, key: string | null) => {
    const [device, ip] = await Promise.all([chat(`chat:${key ?? `ip:${request.ip}`}`), chatPerIp(request.ip)]);
    // The headers describe the device's limit (docs/api.md, rate limits); the IP budget only shows in a 429.
    setRateHeaders(reply, device);
    if (device.exceeded) throw tooManyRequests(device);
    if (ip.exceeded) throw tooManyRequests(ip);
  });

  const general = config.rateLimitMax > 0 ? limiter(windows(), config.rateLimitMax, config.rateLimitWindowS * 1000) : null;
  app.decorate('publicRateLimit', general && ((ip: string | undefined) => general(`ip:${ip}`)));
}

export default fp(rateLimits, { name: 'collecte-rate-limits', dependencies: ['collecte-metrics'] });
