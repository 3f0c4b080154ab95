import path from 'node:path';

/**
 * Configuration, read once from the environment, validated and frozen.
 * Nothing else in the code reads process.env.
 */
export interface Config {
  /** TCP port the HTTP server listens on. */
  readonly port: number;
  /** Interface to bind; loopback by default so a dev box is not exposed by accident. */
  readonly host: string;
  /** Where the embedded database (PGlite) keeps its files when DATABASE_URL is not set. */
  readonly dataDir: string;
  /** PostgreSQL connection string; when set, the embedded database is not used. */
  readonly databaseUrl: string | null;
  /** Redis connection string; when set, rate-limit counters are shared between instances. */
  readonly redisUrl: string | null;
  /** Prefix of every key this service writes in Redis, so that several deployments can share one Redis. */
  readonly redisKeyPrefix: string;
  /** Where media files live (copied there by the import). */
  readonly mediaDir: string;
  /** Public origin of the service (for absolute URLs such as an app's apiUrl); null = the request's own origin. */
  readonly publicBaseUrl: string | null;
  /** General rate limit: requests per window per client IP; 0 disables it (benchmarks only). */
  readonly rateLimitMax: number;
  /** Length of the general rate-limit window, in seconds. */
  readonly rateLimitWindowS: number;
  /** Trust X-Forwarded-For (only behind a load balancer that sets it). */
  readonly trustProxy: boolean;
  /** pino level: trace, debug, info, warn, error, fatal, silent. */
  readonly logLevel: string;
  /** HS256 secret for console JWTs; null disables the console (every console request gets 401). */
  readonly consoleJwtSecret: string | null;
  /** OpenAI-compatible chat-completions endpoint; null = built-in assistant only. */
  readonly llmBaseUrl: string | null;
  readonly llmModel: string | null;
  readonly llmApiKey: string | null;
  /** How long to wait for the language model before the built-in assistant answers instead. */
  readonly llmTimeoutMs: number;
  /**
   * Above this many ACTIF cities, GET /public/cities is streamed in batches instead of built and cached
   * whole (src/cities/stream.ts): at national scale the body is near a gigabyte.
   */
  readonly citiesStreamThreshold: number;
  /** A client must send its request headers within this time (slow-loris defence; Node answers 408 and closes). */
  readonly headersTimeoutMs: number;
  /** A client must send its whole request, headers and body, within this time (Node answers 408 and closes). */
  readonly requestTimeoutMs: number;
}

/**
 * Default of CITIES_STREAM_THRESHOLD. A demo-like city (five collected streams, the déchèterie and pharmacy guides,
 * places, quizzes, challenges) weighs about 90 KB in the list, so 300 of them are about 27 MB: under the response
 * cache's 32 MiB cap per body, built once and served from memory at wire speed. Beyond that the body grows towards
 * gigabytes (35,000 communes) and must be streamed, never held.
 */
export const CITIES_STREAM_THRESHOLD = 300;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === null) return dflt;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = str(env, name);
  if (raw === null) return dflt;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
  }
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent`);
  }
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return Object.freeze({
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX') ?? 'collecte:',
    mediaDir: path.resolve(str(env, 'MEDIA_DIR') ?? path.join(dataDir, 'media')),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 600, 0, 1_000_000_000),
    rateLimitWindowS: int(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    logLevel,
    consoleJwtSecret: str(env, 'CONSOLE_JWT_SECRET'),
    llmBaseUrl: url(env, 'LLM_BASE_URL', ['http:', 'https:']),
    llmModel: str(env, 'LLM_MODEL'),
    llmApiKey: str(env, 'LLM_API_KEY'),
    llmTimeoutMs: int(env, 'LLM_TIMEOUT_MS', 8000, 100, 120_000),
    citiesStreamThreshold: int(env, 'CITIES_STREAM_THRESHOLD', CITIES_STREAM_THRESHOLD, 0, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
  });
}
