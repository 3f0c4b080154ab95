import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Bodies smaller than this are sent as they are: compressing them costs more than it saves. */
const COMPRESS_MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip' | 'identity';

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

/**
 * Strong ETags (one per representation: the coding is part of the tag), 304 on If-None-Match,
 * gzip/brotli on request, and Cache-Control on public reads. Applies to bodies built in memory (JSON,
 * calendars); streamed files handle their own validators.
 */
async function conditionalResponses(app: FastifyInstance) {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const status = reply.statusCode;
    const isPublic = request.url.startsWith('/public');
    if (status !== 200) return payload;
    if (isPublic && !reply.hasHeader('cache-control')) reply.header('cache-control', 'public, max-age=60');

    let body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const compressible = isCompressible(reply.getHeader('content-type')) && !reply.hasHeader('content-encoding');
    const encoding = compressible && body.length >= COMPRESS_MIN_BYTES ? negotiateEncoding(request.headers['accept-encoding']) : 'identity';
    if (compressible) reply.header('vary', 'Accept-Encoding');

    let etag = reply.getHeader('etag') as string | undefined;
    if (!etag) {
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
      etag = `"${hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
      reply.header('etag', etag);
    }
    if (etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('content-length');
      reply.removeHeader('content-type');
      return '';
    }
    if (encoding !== 'identity') {
      body =
        encoding === 'br'
          ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
          : gzipSync(body, { level: 6 });
      reply.header('content-encoding', encoding);
      reply.header('content-length', body.length);
      return body;
    }
    return payload;
  });
}

export default fp(conditionalResponses, { name: 'collecte-conditional-responses' });
