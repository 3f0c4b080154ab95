import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Configuration, read once from the environment, validated and frozen.
 * Nothing else in the code reads process.env.
 */

/**
 * The embedded database's own cache, in MiB. PostgreSQL's default (128 MiB) lives in the WebAssembly memory, which
 * never shrinks: on a 1 GB machine that is a quarter of it. A city's data set is a few MiB, and its files are read
 * through the operating system's page cache anyway.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

export interface Config {
  /** TCP port the HTTP server listens on. */
  readonly port: number;
  /** Interface to bind; loopback by default so a dev box is not exposed by accident. */
  readonly host: string;
  /** Where the embedded database (PGlite) keeps its files when DATABASE_URL is not set. */
  readonly dataDir: string;
  /** PostgreSQL connection string; when set, the embedded database is not used. */
  readonly databaseUrl: string | null;
  /** PostgreSQL connections per instance: several instances share the server's max_connections. */
  readonly databasePoolSize: number;
  /** The embedded database's shared buffers, in MiB. */
  readonly pgliteSharedBuffersMb: number;
  /** Longest wait for a pool connection (or a new connection): past it a request answers 503 instead of hanging. */
  readonly databaseConnectTimeoutMs: number;
  /** Longest statement (server-side statement_timeout, and client-side for a server that no longer answers). */
  readonly databaseStatementTimeoutMs: number;
  /** A transaction idle this long is ended by PostgreSQL, so a stuck request cannot hold a snapshot or locks. */
  readonly databaseIdleInTransactionTimeoutMs: number;
  /** Longest a SIGTERM waits for requests in flight before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  /** Bearer token that /metrics requires; null: /metrics is open (keep it on a private network then). */
  readonly metricsToken: string | null;
  /** Redis connection string; when set, rate-limit counters are shared between instances. */
  readonly redisUrl: string | null;
  /** Prefix of every key this service writes in Redis, so that several deployments can share one Redis. */
  readonly redisKeyPrefix: string;
  /**
   * Longest a request waits for Redis to count it before it is counted in this process's memory (and Redis is taken
   * for stalled until it answers a probe): a hung Redis costs a request this much once, never a timeout each time.
   */
  readonly redisWaitMs: number;
  /** Where media files live (copied there by the import, written there by uploads). */
  readonly mediaDir: string;
  /** Largest media file an agent may upload (POST /admin/media), counted while it streams in: 413 beyond. */
  readonly mediaMaxBytes: number;
  /** Public origin of the service (for absolute URLs such as an app's apiUrl); null = the request's own origin. */
  readonly publicBaseUrl: string | null;
  /** General rate limit: requests per window per client IP; 0 disables it (benchmarks only). */
  readonly rateLimitMax: number;
  /** Length of the general rate-limit window, in seconds. */
  readonly rateLimitWindowS: number;
  /**
   * Which proxies may tell the client's address (X-Forwarded-For) and protocol (X-Forwarded-Proto): none (false),
   * the nearest `n` hops (a number), or only the listed addresses and CIDR ranges. Never every hop: a client
   * would then choose its own address, and its rate-limit budget with it.
   */
  readonly trustProxy: TrustProxy;
  /** pino level: trace, debug, info, warn, error, fatal, silent. */
  readonly logLevel: string;
  /** HS256 secret for console JWTs, at least 32 bytes; null disables the console (every console request gets 401). */
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
  /** false: every public read is computed (benchmarks of cache misses only; never in production). */
  readonly responseCache: boolean;
  /** Streamed city lists sent at once, at most: each holds memory and, per batch, a database connection. */
  readonly citiesMaxStreams: number;
  /** A client must send its request headers within this time (slow-loris defence; Node answers 408 and closes). */
  readonly headersTimeoutMs: number;
  /** A client must send its whole request, headers and body, within this time (Node answers 408 and closes). */
  readonly requestTimeoutMs: number;
  /** Chat creations and messages per minute per client IP, beside the 20 per device: rotating device ids must not escape. */
  readonly chatIpMax: number;
  /** Resident requests created per hour per client IP, beside the 10 per device (docs/api.md, resident requests). */
  readonly requestsIpMax: number;
  /** Days after a request is closed before what identifies its requester is erased. */
  readonly requestsRetentionDays: number;
  /**
   * Days after a chat conversation's last activity (its latest message or status change) before it is deleted with its
   * messages: a public service keeps personal data no longer than needed, and a year covers any follow-up.
   */
  readonly chatRetentionDays: number;
  /** Worker threads answering with the built-in assistant, so that its text matching never holds the event loop. */
  readonly chatWorkers: number;
  /** Messages waiting for a free assistant worker, at most; past it a message answers 503 instead of waiting. */
  readonly chatQueueMax: number;
  /** Language-model calls per minute per client IP; past it the built-in assistant answers. */
  readonly llmIpCallsPerMinute: number;
  /** Language-model calls per hour per client IP; past it the built-in assistant answers. */
  readonly llmIpCallsPerHour: number;
  /** Language-model calls per city group and calendar day (Europe/Paris); past it the built-in assistant answers. */
  readonly llmDailyCallsPerGroup: number;
  /** Key of the console's device pseudonyms (HMAC); null = derived from CONSOLE_JWT_SECRET. */
  readonly devicePseudonymKey: string | null;
  /**
   * Lifetime of an agent's login (its refresh session), counted from the login and never extended by a refresh:
   * past it the agent logs in again, so that a stolen refresh cookie dies on its own.
   */
  readonly authSessionHours: number;
  /**
   * VAPID key pair of Web Push reminders (base64url, as `web-push generate-vapid-keys` prints them); both null: a
   * pair is generated once and kept in the database, so that every instance and every restart signs alike.
   */
  readonly vapidPublicKey: string | null;
  readonly vapidPrivateKey: string | null;
  /** Contact the push services may write to about this sender (`mailto:` or `https:`); null: derived from the public origin. */
  readonly vapidSubject: string | null;
  /** SMTP server of e-mail reminders (`smtp://user:pass@host:587`, `smtps://…`); e-mail is offered only with MAIL_FROM too. */
  readonly smtpUrl: string | null;
  /** Sender of e-mail reminders (`Collecte <rappels@ville.fr>`). */
  readonly mailFrom: string | null;
  /** false: this instance serves the reminder routes but never plans or sends reminders (another instance does). */
  readonly remindersWorker: boolean;
  /** Confirmation e-mails per client IP and day, beside the 5 per mailbox: rotating addresses must not make us mail strangers. */
  readonly reminderConfirmationsPerIp: number;
  /** Tests only: push endpoints may be `http` and on loopback (the tests' own push service). Never in production. */
  readonly webPushAllowInsecureEndpoints: boolean;
  /**
   * The report form's map (MAP_TILE_URL, MAP_TILE_ATTRIBUTION); null: no map, and the residents' browsers reach no
   * other server than this one. The tiles' origin joins the web app's CSP `img-src`.
   */
  readonly mapTiles: MapTiles | null;
}

export interface MapTiles {
  /** XYZ raster tiles, 256 px, Web Mercator: `https://tile.example.org/{z}/{x}/{y}.png`. */
  readonly url: string;
  /** The credit the tile server asks for, shown on the map. */
  readonly attribution: string;
}

/**
 * Default of CHAT_WORKERS: one core is the event loop's, the others answer chat messages (one on a 2-core
 * machine), and more than four would only queue on the same cores as the HTTP work.
 */
export const DEFAULT_CHAT_WORKERS = Math.min(4, Math.max(1, os.availableParallelism() - 1));

/**
 * Default of CITIES_STREAM_THRESHOLD. A demo-like city (five collected streams, the déchèterie and pharmacy guides,
 * places, quizzes, challenges) weighs about 90 KB in the list, so 300 of them are about 27 MB: under the response
 * cache's 32 MiB cap per body, built once and served from memory at wire speed. Beyond that the body grows towards
 * gigabytes (35,000 communes) and must be streamed, never held.
 */
export const CITIES_STREAM_THRESHOLD = 300;

export class ConfigError extends Error {}

/** TRUST_PROXY parsed: trust no proxy, the nearest `n` hops, or the proxies at these addresses (IPs, CIDRs, proxy-addr's names). */
export type TrustProxy = false | number | readonly string[];

/** More hops than any real chain of proxies in front of a city's service: a larger count is a typo. */
const MAX_TRUSTED_HOPS = 10;

/** proxy-addr's names for the loopback, link-local and private (unique local) ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

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

/** An IP address, or an IP/prefix CIDR range that is not the whole address space. */
function isProxyAddress(text: string): boolean {
  if (PROXY_RANGE_NAMES.includes(text)) return true;
  const slash = text.indexOf('/');
  if (slash === -1) return isIP(text) !== 0;
  const version = isIP(text.slice(0, slash));
  const prefix = text.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  // A /0 range trusts every address: the very mistake TRUST_PROXY=true used to make.
  return Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, false or 0 trusts no proxy; true means one hop (the load balancer in front); a whole number
 * is a hop count; anything else is a comma-separated list of proxy addresses and CIDR ranges.
 */
function trustProxy(env: Env, name: string): TrustProxy {
  const raw = str(env, name);
  if (raw === null) return false;
  // A word that names no range is a yes or a no; yes is the one load balancer in front.
  if (/^[a-z]+$/i.test(raw) && !PROXY_RANGE_NAMES.includes(raw)) return bool(env, name, false) ? 1 : false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_TRUSTED_HOPS) throw new ConfigError(`${name} must be a hop count from 0 to ${MAX_TRUSTED_HOPS}, got ${raw}`);
    return hops === 0 ? false : hops;
  }
  const proxies = raw.split(',').map((part) => part.trim());
  const bad = proxies.find((part) => !isProxyAddress(part));
  if (bad !== undefined) {
    throw new ConfigError(
      `${name} must be true, false, a hop count, or a comma-separated list of proxy IP addresses or CIDR ranges (not /0); "${bad}" is none of these`,
    );
  }
  return Object.freeze(proxies);
}

/**
 * Shortest CONSOLE_JWT_SECRET accepted, in bytes: an HS256 key shorter than its 256-bit hash can be guessed
 * offline from any one token an agent leaks (RFC 7518 section 3.2 asks for at least 256 bits).
 */
export const MIN_CONSOLE_SECRET_BYTES = 32;

function consoleSecret(env: Env, name: string): string | null {
  const secret = str(env, name);
  if (secret === null) return null;
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_CONSOLE_SECRET_BYTES) {
    throw new ConfigError(
      `${name} must be at least ${MIN_CONSOLE_SECRET_BYTES} bytes long, got ${bytes}; generate one with: openssl rand -base64 48`,
    );
  }
  return secret;
}

/** A VAPID key: base64url without padding, of the length a P-256 public (65 bytes) or private (32 bytes) key has. */
function vapidKey(env: Env, name: string, bytes: number): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  if (!/^[A-Za-z0-9_-]+$/.test(raw) || Buffer.from(raw, 'base64url').length !== bytes) {
    throw new ConfigError(`${name} must be a base64url P-256 key of ${bytes} bytes (generate a pair with: npx web-push generate-vapid-keys)`);
  }
  return raw;
}

function vapidSubject(env: Env, name: string): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  if (!/^mailto:\S+@\S+$/.test(raw) && !/^https:\/\/\S+$/.test(raw)) throw new ConfigError(`${name} must be a mailto: or https: URL, got "${raw}"`);
  return raw;
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

/** The credit OpenStreetMap's tiles require, and the default one: most tile servers draw OpenStreetMap's data. */
export const DEFAULT_MAP_TILE_ATTRIBUTION = '© les contributeurs d’OpenStreetMap';

/**
 * Hosts a tile server may be reached on over plain http: this machine only (a tile server beside the service, or a
 * test's). By name, not by address range: the CSP names the origin, and CSP cannot name an IPv6 address.
 */
const LOOPBACK_TILE_HOSTS = ['localhost', '127.0.0.1'];

/**
 * MAP_TILE_URL: an https URL (http on loopback) holding `{z}`, `{x}` and `{y}` and no other placeholder (no `{s}`
 * subdomains: the CSP allows one origin), without credentials (every browser reads it).
 */
function tileTemplate(env: Env, name: string): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  const missing = ['{z}', '{x}', '{y}'].filter((placeholder) => !raw.includes(placeholder));
  if (missing.length > 0) {
    throw new ConfigError(`${name} must hold {z}, {x} and {y} (such as https://tile.openstreetmap.org/{z}/{x}/{y}.png); ${missing.join(', ')} missing`);
  }
  const other = /\{(?![zxy]\})[^}]*\}/.exec(raw);
  if (other) throw new ConfigError(`${name} may hold only the placeholders {z}, {x} and {y}, got ${other[0]} (name one server: no {s} subdomains)`);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  const loopback = LOOPBACK_TILE_HOSTS.includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new ConfigError(`${name} must use https: (http: only on localhost or 127.0.0.1), got ${parsed.protocol}//${parsed.host}`);
  }
  if (parsed.username || parsed.password) throw new ConfigError(`${name} must not hold a user or password: every resident's browser reads it`);
  return raw;
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
  const vapidPublicKey = vapidKey(env, 'VAPID_PUBLIC_KEY', 65);
  const vapidPrivateKey = vapidKey(env, 'VAPID_PRIVATE_KEY', 32);
  if ((vapidPublicKey === null) !== (vapidPrivateKey === null)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither (a pair is then kept in the database)');
  }
  const mapTileUrl = tileTemplate(env, 'MAP_TILE_URL');
  const mapTileAttribution = str(env, 'MAP_TILE_ATTRIBUTION');
  if (mapTileAttribution !== null && mapTileUrl === null) {
    throw new ConfigError('MAP_TILE_ATTRIBUTION has no use without MAP_TILE_URL: set the tile server too, or neither');
  }
  return Object.freeze({
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    pgliteSharedBuffersMb: int(env, 'PGLITE_SHARED_BUFFERS_MB', DEFAULT_PGLITE_SHARED_BUFFERS_MB, 1, 4096),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 2_000, 100, 600_000),
    databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
    databaseIdleInTransactionTimeoutMs: int(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30_000, 100, 3_600_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 100, 600_000),
    metricsToken: str(env, 'METRICS_TOKEN'),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX') ?? 'collecte:',
    redisWaitMs: int(env, 'REDIS_WAIT_MS', 20, 1, 60_000),
    mediaDir: path.resolve(str(env, 'MEDIA_DIR') ?? path.join(dataDir, 'media')),
    mediaMaxBytes: int(env, 'MEDIA_MAX_BYTES', 10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 600, 0, 1_000_000_000),
    rateLimitWindowS: int(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    logLevel,
    consoleJwtSecret: consoleSecret(env, 'CONSOLE_JWT_SECRET'),
    llmBaseUrl: url(env, 'LLM_BASE_URL', ['http:', 'https:']),
    llmModel: str(env, 'LLM_MODEL'),
    llmApiKey: str(env, 'LLM_API_KEY'),
    llmTimeoutMs: int(env, 'LLM_TIMEOUT_MS', 8000, 100, 120_000),
    citiesStreamThreshold: int(env, 'CITIES_STREAM_THRESHOLD', CITIES_STREAM_THRESHOLD, 0, 1_000_000),
    citiesMaxStreams: int(env, 'CITIES_MAX_STREAMS', 4, 1, 1000),
    responseCache: bool(env, 'RESPONSE_CACHE', true),
    headersTimeoutMs,
    requestTimeoutMs,
    chatIpMax: int(env, 'CHAT_IP_MAX', 60, 1, 1_000_000),
    requestsIpMax: int(env, 'REQUESTS_IP_MAX', 30, 1, 1_000_000),
    requestsRetentionDays: int(env, 'REQUESTS_RETENTION_DAYS', 365, 1, 36_500),
    chatRetentionDays: int(env, 'CHAT_RETENTION_DAYS', 365, 1, 36_500),
    chatWorkers: int(env, 'CHAT_WORKERS', DEFAULT_CHAT_WORKERS, 1, 64),
    chatQueueMax: int(env, 'CHAT_QUEUE_MAX', 32, 0, 100_000),
    llmIpCallsPerMinute: int(env, 'LLM_IP_CALLS_PER_MINUTE', 20, 0, 1_000_000),
    llmIpCallsPerHour: int(env, 'LLM_IP_CALLS_PER_HOUR', 200, 0, 1_000_000),
    llmDailyCallsPerGroup: int(env, 'LLM_DAILY_CALLS_PER_GROUP', 5000, 0, 100_000_000),
    devicePseudonymKey: str(env, 'DEVICE_PSEUDONYM_KEY'),
    authSessionHours: int(env, 'AUTH_SESSION_HOURS', 12, 1, 720),
    vapidPublicKey,
    vapidPrivateKey,
    vapidSubject: vapidSubject(env, 'VAPID_SUBJECT'),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: str(env, 'MAIL_FROM'),
    remindersWorker: bool(env, 'REMINDERS_WORKER', true),
    reminderConfirmationsPerIp: int(env, 'REMINDER_CONFIRMATIONS_PER_IP', 20, 1, 1_000_000),
    webPushAllowInsecureEndpoints: bool(env, 'WEB_PUSH_ALLOW_INSECURE_ENDPOINTS', false),
    mapTiles: mapTileUrl === null ? null : Object.freeze({ url: mapTileUrl, attribution: mapTileAttribution ?? DEFAULT_MAP_TILE_ATTRIBUTION }),
  });
}
