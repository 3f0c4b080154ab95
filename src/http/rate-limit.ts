import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { ApiError } from './errors.ts';
import { connectRedis, createRedis } from './redis.ts';

/** Chat: conversation creation and message sending share 20 requests per minute per device (CONTRACT section 2). */
export const CHAT_LIMIT = { max: 20, windowMs: 60_000 };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one chat request for `key` (a deviceId; the client IP when none applies), sets the
     * X-RateLimit-* headers of the chat limit, and throws 429 past the limit.
     */
    chatRateLimit(request: FastifyRequest, reply: FastifyReply, key: string | null): Promise<void>;
  }
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

const TOO_MANY = 'Trop de requêtes : réessayez dans quelques instants.';

/** Applies one limiter: headers always, 429 with Retry-After past the limit. Reset is in Unix seconds. */
async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const result = await limiter(request);
  if (result.isAllowed) return;
  const nowS = Math.floor(Date.now() / 1000);
  const resetIn = Math.max(result.ttlInSeconds, 0);
  reply.header('x-ratelimit-limit', result.max);
  reply.header('x-ratelimit-remaining', result.remaining);
  reply.header('x-ratelimit-reset', nowS + resetIn);
  if (result.isExceeded) {
    throw new ApiError(429, TOO_MANY, { 'retry-after': String(Math.max(resetIn, 1)) });
  }
}

async function rateLimits(app: FastifyInstance) {
  const { config } = app;
  const client = config.redisUrl ? createRedis(config.redisUrl, app.log) : null;
  const redis = client?.redis;
  if (client) {
    await connectRedis(client.redis);
    app.addHook('onClose', async () => client.close());
  }

  await app.register(rateLimit, {
    global: false,
    // Fail open: when the store (Redis) errors, the request is served and counted again once it is back.
    skipOnError: true,
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}rate-limit:` } : {}),
  });

  const chat = app.createRateLimit({
    max: CHAT_LIMIT.max,
    timeWindow: CHAT_LIMIT.windowMs,
    keyGenerator: (request) => `chat:${(request as FastifyRequest & { chatKey?: string }).chatKey ?? request.ip}`,
  });
  app.decorate('chatRateLimit', async (request: FastifyRequest, reply: FastifyReply, key: string | null) => {
    (request as FastifyRequest & { chatKey?: string }).chatKey = key ?? `ip:${request.ip}`;
    await enforce(chat, request, reply);
  });

  if (config.rateLimitMax > 0) {
    const general = app.createRateLimit({
      max: config.rateLimitMax,
      timeWindow: config.rateLimitWindowS * 1000,
      keyGenerator: (request) => `ip:${request.ip}`,
    });
    // Every /public request, matched route or not, counts against the client IP's budget.
    app.addHook('onRequest', async (request, reply) => {
      if (request.url.startsWith('/public')) await enforce(general, request, reply);
    });
  }
}

export default fp(rateLimits, { name: 'collecte-rate-limits' });
