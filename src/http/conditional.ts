import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ResponseCache, type CachedResponse } from './response-cache.ts';

/** Bodies smaller than this are sent as they are: compressing them costs more than it saves. */
const COMPRESS_MIN_BYTES = 1024;
/** How long a cached public body may be served without recomputation, at most (the browser's max-age too). */
const CACHE_TTL_MS = 60_000;

export type Encoding = 'br' | 'gzip' | 'identity';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Cache this GET route's 200 bodies per URL until public data changes (default for GET /public routes). */
    cache?: boolean;
  }
  interface FastifyRequest {
    /** Set by a handler whose answer stops being right at a known time (a challenge ends, a page is published). */
    cacheUntil?: Date;
  }
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
  return typeof type === 'string' && /^(application\/(json|problem\+json)|text\/)/.test(type);
}

export function encode(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body, { level: 6 });
}

function strongEtag(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 27);
}

/** One representation of a response: its bytes and their validator. */
interface Representation {
  body: Buffer;
  etag: string;
  encoding: Encoding;
}

function pickEncoding(request: FastifyRequest, compressible: boolean, size: number): Encoding {
  return compressible && size >= COMPRESS_MIN_BYTES ? negotiateEncoding(request.headers['accept-encoding']) : 'identity';
}

/** Writes one representation: its headers, or a 304 when the client already holds it. */
function sendRepresentation(request: FastifyRequest, reply: FastifyReply, rep: Representation): Buffer | string {
  reply.header('etag', rep.etag);
  if (etagMatches(request.headers['if-none-match'], rep.etag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    return '';
  }
  if (rep.encoding !== 'identity') reply.header('content-encoding', rep.encoding);
  reply.header('content-length', rep.body.length);
  return rep.body;
}

/** The representation of a cached response in the asked coding, compressed once and kept. */
function cachedRepresentation(cache: ResponseCache, entry: CachedResponse, encoding: Encoding): Representation {
  if (encoding === 'identity') return { body: entry.body, etag: entry.etag, encoding };
  const variant = cache.variant(entry, encoding, () => ({
    body: encode(entry.body, encoding),
    etag: `${entry.etag.slice(0, -1)}-${encoding}"`,
  }));
  return { ...variant, encoding };
}

function isPrivate(cacheControl: unknown): boolean {
  return typeof cacheControl === 'string' && /no-store|no-cache|private/.test(cacheControl);
}

/**
 * Strong ETags (one per representation: the coding is part of the tag), 304 on If-None-Match, gzip and
 * brotli on request, and Cache-Control on public reads. Public GET bodies are kept per URL, with their
 * compressed variants and validators, until public data changes (data_version), their own expiry, or
 * CACHE_TTL_MS: a cached read costs no query, no serialisation, no hashing and no compression.
 * Streamed files handle their own validators.
 */
async function conditionalResponses(app: FastifyInstance) {
  const cache = new ResponseCache();
  const fromCache = new WeakSet<FastifyRequest>();

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET') && route.url.startsWith('/public') && route.config?.cache !== false) {
      route.config = { ...(route.config ?? {}), cache: true };
    }
  });

  // Synchronous hooks: a cached read is on the hot path, and an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !request.routeOptions.config?.cache) return done();
    const entry = cache.get(request.url, app.dataVersion.current, app.clock().getTime());
    if (!entry) return done();
    fromCache.add(request);
    reply.headers(entry.headers);
    const rep = cachedRepresentation(cache, entry, pickEncoding(request, entry.compressible, entry.body.length));
    reply.send(sendRepresentation(request, reply, rep));
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    done(null, fromCache.has(request) ? payload : representationOf(request, reply, payload));
  });

  function representationOf(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // Byte-range answers (media files) carry their own validators and are sent as stored.
    if (reply.statusCode !== 200 || reply.hasHeader('accept-ranges')) return payload;
    const isPublic = request.url.startsWith('/public');
    if (isPublic && !reply.hasHeader('cache-control')) reply.header('cache-control', 'public, max-age=60');

    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const compressible = isCompressible(contentType) && !reply.hasHeader('content-encoding');
    if (compressible) reply.header('vary', 'Accept-Encoding');
    const routeEtag = reply.getHeader('etag') as string | undefined;
    const etag = routeEtag ?? `"${strongEtag(body)}"`;
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    const encoding = pickEncoding(request, compressible, body.length);

    if (request.routeOptions.config?.cache && !isPrivate(cacheControl)) {
      const now = app.clock().getTime();
      const until = Math.min(now + CACHE_TTL_MS, request.cacheUntil?.getTime() ?? Infinity);
      const entry = cache.set(request.url, {
        key: request.url,
        version: app.dataVersion.current,
        expiresAt: until,
        body,
        etag,
        compressible,
        headers: { 'content-type': contentType, 'cache-control': cacheControl, ...(compressible ? { vary: 'Accept-Encoding' } : {}) },
        variants: {},
      });
      return sendRepresentation(request, reply, cachedRepresentation(cache, entry, encoding));
    }
    if (encoding === 'identity') return sendRepresentation(request, reply, { body, etag, encoding });
    const encoded = encode(body, encoding);
    return sendRepresentation(request, reply, { body: encoded, etag: routeEtag ?? `"${strongEtag(encoded)}-${encoding}"`, encoding });
  }
}

export default fp(conditionalResponses, { name: 'collecte-conditional-responses', dependencies: ['collecte-data-version'] });
