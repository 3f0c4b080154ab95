import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isUuid } from '../kernel/schemas.ts';
import { ResponseCache, type CachedRepresentation, type CachedResponse } from './response-cache.ts';

/** Bodies smaller than this are sent as they are: compressing them costs more than it saves. */
const COMPRESS_MIN_BYTES = 1024;
/** How long a cached public body may be served without recomputation, at most (the browser's max-age too). */
const CACHE_TTL_MS = 60_000;

export type Encoding = 'br' | 'gzip' | 'identity';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Answers a GET or HEAD whose URL the response cache holds, in one write: the entry's prebuilt header lines
     * (security, CORS, type, Cache-Control, Vary, ETag, length), then `extraHeaders` (name, value…), then the
     * body; a 304 when If-None-Match matches. False, having written nothing, when the cache cannot answer.
     * `config` is the request's route config, as the caller already read it.
     */
    answerFromCache(request: FastifyRequest, reply: FastifyReply, config: FastifyContextConfig, extraHeaders: string[] | null): boolean;
    /** The fresh entry the response cache holds for a cache key (`request.cacheKey`), if any. */
    cachedAnswer(key: string): CachedResponse | undefined;
    /**
     * Writes a fresh entry as the whole answer to a GET or HEAD, in one write, as `answerFromCache` does: for an
     * answer written before Fastify's request exists (request-entry.ts's early hits).
     */
    writeCachedAnswer(request: IncomingMessage, response: ServerResponse, entry: CachedResponse, extraHeaders: string[] | null): void;
    /**
     * While the database is down: answers a GET or HEAD with the last good answer the cache kept for it, however
     * stale (up to STALE_IF_ERROR_MS past its expiry), with the reply's own rate-limit headers. False when none.
     */
    answerStale(request: FastifyRequest, reply: FastifyReply): boolean;
  }
  interface FastifyContextConfig {
    /** Cache this GET route's 200 answers until public data changes (default for the GET routes of audience `public` and their HEAD). */
    cache?: boolean;
    /**
     * The answer depends on the request's origin (a URL built from its protocol and Host, both of which a trusted proxy
     * may give): the origin is part of the cache key.
     */
    cacheByOrigin?: boolean;
    /** Set at start-up for cached routes: what the cache key is made of. */
    cacheKeyPlan?: CacheKeyPlan;
  }
  interface FastifyRequest {
    /**
     * Set by a handler whose answer stops being right at a known time (a challenge ends, a point opens). Scheduled
     * publications need none: every public answer is kept until the next one at most (data-version.ts).
     */
    cacheUntil?: Date;
    /** This request's cache key, made once from the raw URL by the first hook and used again to store the answer. */
    cacheKey?: string;
  }
}

/**
 * A cached route's key: its URL pattern, its path parameters, the query parameters its schema declares, and the origin
 * (protocol and host) when the answer depends on it. Never the raw URL: a route ignores query parameters it does not
 * declare, so keying on them would let anyone grow the cache with distinct URLs (`?x=<15 KB>`) and the memory with their
 * keys.
 */
export interface CacheKeyPlan {
  url: string;
  params: string[];
  query: string[];
  byOrigin: boolean;
}

/** A parameter as the routes read it: ids in any letter case are the same id (stored lowercase). */
function normalisedValue(value: unknown): string {
  const text = Array.isArray(value) ? value.join('\u0001') : String(value);
  return isUuid(text) ? text.toLowerCase() : text;
}

/** The declared names of a route's params or querystring schema. */
function declaredNames(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties).sort() : [];
}

export function cacheKeyOf(request: FastifyRequest, plan: CacheKeyPlan): string {
  if (plan.params.length === 0 && plan.query.length === 0 && !plan.byOrigin) return plan.url;
  let key = plan.url;
  const params = request.params as Record<string, unknown>;
  for (const name of plan.params) key += `\u0000${normalisedValue(params[name])}`;
  const query = request.query as Record<string, unknown>;
  for (const name of plan.query) {
    if (query[name] !== undefined) key += `\u0000${name}=${normalisedValue(query[name])}`;
  }
  if (plan.byOrigin) key += `\u0000origin=${request.protocol}://${request.host.toLowerCase()}`;
  return key;
}

/** Picks the client's preferred coding among br and gzip (q-values honoured), identity otherwise. */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let best: Encoding = 'identity';
  let bestQ = 0;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (!(q > 0)) continue;
    const candidate: Encoding | null = name === 'br' ? 'br' : name === 'gzip' || name === 'x-gzip' ? 'gzip' : name === '*' ? 'br' : null;
    // On equal weight brotli wins: smaller bodies.
    if (candidate && (q > bestQ || (q === bestQ && candidate === 'br'))) {
      best = candidate;
      bestQ = q;
    }
  }
  return best;
}

/** Whether an If-None-Match header matches a strong ETag (weak comparison, as RFC 9110 says for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

function isCompressible(type: unknown): boolean {
  return typeof type === 'string' && /^(application\/(json|problem\+json|geo\+json|x-yaml)|text\/)/.test(type);
}

const brotliOptions = (body: Buffer): BrotliOptions => ({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
const GZIP_OPTIONS: ZlibOptions = { level: 6 };

/**
 * A body compressed on the event loop: for a cached body's variant, made once and then served many times. The same
 * settings as `encodeAsync`, so a body has the same bytes, and the same ETag, whichever made it.
 */
export function encode(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(body)) : gzipSync(body, GZIP_OPTIONS);
}

/**
 * A body compressed on libuv's thread pool: for an answer that is sent once (not cached), so that a large admin
 * listing or uncached read does not hold the event loop, and every other request, while it is compressed.
 */
export function encodeAsync(body: Buffer, encoding: Exclude<Encoding, 'identity'>, done: (err: Error | null, encoded: Buffer) => void): void {
  if (encoding === 'br') brotliCompress(body, brotliOptions(body), done);
  else gzip(body, GZIP_OPTIONS, done);
}

function strongEtag(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 27);
}

/** A body in one coding with its validator. */
interface Representation {
  body: Buffer;
  etag: string;
  encoding: Encoding;
}

/** Accept-Encoding values seen, with the coding each asks for: clients send a handful of distinct values. */
const negotiated = new Map<string, Encoding>();
const NEGOTIATED_MAX = 256;

function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    encoding = negotiateEncoding(header);
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, encoding);
  }
  return encoding;
}

function pickEncoding(request: FastifyRequest | IncomingMessage, compressible: boolean, size: number): Encoding {
  return compressible && size >= COMPRESS_MIN_BYTES ? preferredEncoding(request.headers['accept-encoding']) : 'identity';
}

/** Writes one representation's headers on the reply, or a 304 when the client already holds it. */
function sendRepresentation(request: FastifyRequest, reply: FastifyReply, rep: Representation): Buffer | string | null {
  reply.header('etag', rep.etag);
  if (etagMatches(request.headers['if-none-match'], rep.etag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    // No body and no Content-Length (RFC 9110 8.6: a 304's length would have to be the 200's). A HEAD keeps ''
    // because Fastify's HEAD handler measures the payload it is given.
    return request.method === 'HEAD' ? '' : null;
  }
  if (rep.encoding !== 'identity') reply.header('content-encoding', rep.encoding);
  reply.header('content-length', rep.body.length);
  return rep.body;
}

/**
 * Headers a cached answer does not take from the answer that filled the cache: the validator and the length
 * (per representation; so is the coding, which is only ever added after), this request's rate-limit figures,
 * and cookies (never shared between clients).
 */
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
// HSTS depends on the request's scheme: added per answer, never shared by an entry.
const PER_ANSWER_HEADERS = new Set(['etag', 'content-length', ...RATE_LIMIT_HEADERS, 'set-cookie', 'strict-transport-security']);

/** The reply's headers as lines (name, value…), those of PER_ANSWER_HEADERS left out. */
function sharedHeaderLines(reply: FastifyReply): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || PER_ANSWER_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(name, String(one));
  }
  return lines;
}

/** A cached representation with the header lines of its 200 and 304 answers, built once. */
function cachedRepresentation(headers: string[], body: Buffer, etag: string, encoding: Encoding): CachedRepresentation {
  const ok = [...headers, 'etag', etag];
  if (encoding !== 'identity') ok.push('content-encoding', encoding);
  ok.push('content-length', String(body.length));
  // A 304 describes no body: no type, length or coding.
  const notModified: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] !== 'content-type') notModified.push(headers[i], headers[i + 1]);
  }
  notModified.push('etag', etag);
  return { body, etag, ok, notModified };
}

/** The representation of a cached response in the asked coding, compressed once and kept. */
function representationIn(cache: ResponseCache, entry: CachedResponse, encoding: Encoding): CachedRepresentation {
  if (encoding === 'identity') return entry.identity;
  return cache.variant(entry, encoding, () =>
    cachedRepresentation(entry.headers, encode(entry.identity.body, encoding), `${entry.identity.etag.slice(0, -1)}-${encoding}"`, encoding),
  );
}

/**
 * The audiences whose reads are kept: the public API, and the API's documentation (the same for everyone, and costly
 * to write: a page's YAML is a copy of the whole document, some 150 ms of CPU). Its answers carry no Cache-Control
 * of their own; they are kept here until data changes or CACHE_TTL_MS.
 */
const CACHED_AUDIENCES: ReadonlySet<string> = new Set(['public', 'docs']);

function isPrivate(cacheControl: unknown): boolean {
  return typeof cacheControl === 'string' && /no-store|no-cache|private/.test(cacheControl);
}

/**
 * Strong ETags (one per representation: the coding is part of the tag), 304 on If-None-Match, gzip and
 * brotli on request, and Cache-Control on public reads. Public GET and HEAD answers are kept per URL, with
 * their compressed variants, validators and header lines, until public data changes (data_version), their
 * own expiry, the next scheduled publication, or CACHE_TTL_MS: a cached read costs no query, no serialisation, no hashing, no compression,
 * and is written in one go (`answerFromCache`, called by the first hook: request-entry.ts).
 * Streamed files handle their own validators.
 */
async function conditionalResponses(app: FastifyInstance) {
  const cache = new ResponseCache();
  app.metricSources.cacheEntries = () => cache.size;
  app.metricSources.cacheBytes = () => cache.bytes;

  // After audience.ts's onRoute hook (registered before this plugin): every route's config holds its audience.
  app.addHook('onRoute', (route) => {
    // HEAD routes too: Fastify's HEAD of a GET route is a route of its own, and answers from the same entry.
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const read = methods.includes('GET') || methods.includes('HEAD');
    if (read && CACHED_AUDIENCES.has(route.config?.audience ?? 'fallback') && route.config?.cache !== false && app.config.responseCache) {
      const plan: CacheKeyPlan = {
        url: route.url,
        params: declaredNames(route.schema?.params),
        query: declaredNames(route.schema?.querystring),
        byOrigin: route.config?.cacheByOrigin === true,
      };
      route.config = { ...(route.config ?? {}), cache: true, cacheKeyPlan: plan };
    }
  });

  /** The request's cache key, made on its first use and kept on the request; null for a route never cached. */
  const keyOf = (request: FastifyRequest, config: FastifyContextConfig): string | null => {
    if (request.cacheKey !== undefined) return request.cacheKey;
    const plan = config.cacheKeyPlan;
    if (!plan) return null;
    request.cacheKey = cacheKeyOf(request, plan);
    return request.cacheKey;
  };

  /** Writes a cached entry as a request's whole answer: 304 or 200, in the coding the client takes. */
  const writeEntry = (request: IncomingMessage, response: ServerResponse, entry: CachedResponse, extraHeaders: string[] | null) => {
    const rep = representationIn(cache, entry, pickEncoding(request, entry.compressible, entry.identity.body.length));
    const notModified = etagMatches(request.headers['if-none-match'], rep.etag);
    const lines = notModified ? rep.notModified : rep.ok;
    response.writeHead(notModified ? 304 : 200, extraHeaders ? lines.concat(extraHeaders) : lines);
    response.end(notModified || request.method === 'HEAD' ? undefined : rep.body);
  };

  const cachedAnswer = (key: string) => cache.get(key, app.dataVersion.current, app.clock().getTime());
  const writeCachedAnswer = (request: IncomingMessage, response: ServerResponse, entry: CachedResponse, extraHeaders: string[] | null) => {
    app.metrics.cacheHits++;
    writeEntry(request, response, entry, extraHeaders);
  };
  app.decorate('cachedAnswer', cachedAnswer);
  app.decorate('writeCachedAnswer', writeCachedAnswer);

  // An entry exists only for a URL a cacheable route answered with 200, and a URL always reaches the same
  // route: a hit needs no look at the route's options.
  app.decorate('answerFromCache', (request: FastifyRequest, reply: FastifyReply, config: FastifyContextConfig, extraHeaders: string[] | null): boolean => {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const key = keyOf(request, config);
    if (key === null) return false;
    const entry = cachedAnswer(key);
    if (!entry) return false;
    // Fastify's reply pipeline (onSend hooks, header merging) has nothing left to do: write the answer directly.
    // onResponse hooks (the request log, metrics) still run.
    reply.hijack();
    writeCachedAnswer(request.raw, reply.raw, entry, extraHeaders);
    return true;
  });

  app.decorate('answerStale', (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const key = keyOf(request, request.routeOptions.config);
    const entry = key === null ? undefined : cache.getStale(key, app.clock().getTime());
    if (!entry) return false;
    const extra: string[] = [];
    for (const name of RATE_LIMIT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) extra.push(name, String(value));
    }
    app.metrics.staleAnswers++;
    reply.hijack();
    writeEntry(request.raw, reply.raw, entry, extra);
    return true;
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    // Byte-range answers (media files) carry their own validators and are sent as stored.
    if (reply.statusCode !== 200 || reply.hasHeader('accept-ranges')) return done(null, payload);
    const config = request.routeOptions.config;
    // A 200 always comes from a route: the not-found handler and the web app's catch-all never answer one on a
    // public URL, so the route's audience is the whole answer.
    const isPublic = config.audience === 'public';
    const now = app.clock().getTime();
    // Nothing public is kept past the next scheduled publication, by this cache or by the client's.
    const freshUntil = isPublic ? app.dataVersion.freshUntil(now) : Infinity;
    if (isPublic && !reply.hasHeader('cache-control')) {
      const maxAge = Math.max(0, Math.min(CACHE_TTL_MS, freshUntil - now));
      reply.header('cache-control', `public, max-age=${Math.floor(maxAge / 1000)}`);
    }

    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const compressible = isCompressible(contentType) && !reply.hasHeader('content-encoding');
    if (compressible) reply.header('vary', 'Accept-Encoding');
    const routeEtag = reply.getHeader('etag') as string | undefined;
    const etag = routeEtag ?? `"${strongEtag(body)}"`;
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    const encoding = pickEncoding(request, compressible, body.length);

    const key = config.cache && !isPrivate(cacheControl) ? keyOf(request, config) : null;
    if (key !== null) {
      const until = Math.min(now + CACHE_TTL_MS, request.cacheUntil?.getTime() ?? Infinity, freshUntil);
      const headers = sharedHeaderLines(reply);
      const entry = cache.set(key, {
        key,
        version: app.dataVersion.current,
        expiresAt: until,
        compressible,
        headers,
        identity: cachedRepresentation(headers, body, etag, 'identity'),
        variants: {},
      });
      // The variant is compressed here, once, and served from memory from then on.
      const rep = representationIn(cache, entry, encoding);
      return done(null, sendRepresentation(request, reply, { body: rep.body, etag: rep.etag, encoding }));
    }
    if (encoding === 'identity') return done(null, sendRepresentation(request, reply, { body, etag, encoding }));
    // Sent once: compressed off the event loop.
    encodeAsync(body, encoding, (err, encoded) => {
      if (err) return done(err);
      done(null, sendRepresentation(request, reply, { body: encoded, etag: routeEtag ?? `"${strongEtag(encoded)}-${encoding}"`, encoding }));
    });
  });
}

export default fp(conditionalResponses, { name: 'collecte-conditional-responses', dependencies: ['collecte-data-version', 'collecte-metrics'] });
