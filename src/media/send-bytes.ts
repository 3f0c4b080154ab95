import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../kernel/errors.ts';
import { etagMatches } from '../http/conditional.ts';
import { ifRangeAllows, parseRange } from './range.ts';
import type { ByteSource } from './service.ts';

/** Media bytes change only when the import changes them, and then their ETag changes too. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=3600';

/**
 * Types a browser shows without running anything of the file: raster images, PDF (in the browser's own viewer), sound,
 * video and plain text. Anything else (SVG above all, which may carry script, or an imported HTML file) is sent as an
 * attachment: the browser saves it instead of opening it as a page of this origin.
 */
const PASSIVE_TYPE = /^(?:image\/(?!svg)|audio\/|video\/|application\/pdf$|text\/plain$)/i;

/** `inline` or `attachment`, with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
function contentDisposition(filename: string, contentType: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const disposition = PASSIVE_TYPE.test(contentType) ? 'inline' : 'attachment';
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Answers a GET for stored bytes with the headers caches and players rely on: 304 on a matching
 * `If-None-Match`, 206 for one satisfiable `Range`, 416 for an unsatisfiable one, else 200 with everything.
 */
export function sendBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  source: ByteSource,
  cacheControl: string = MEDIA_CACHE_CONTROL,
): FastifyReply {
  const common = {
    etag: source.etag,
    'cache-control': cacheControl,
    'accept-ranges': 'bytes',
    // A stored file is never run as a page of this origin (an SVG or HTML upload could carry script).
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };

  if (etagMatches(request.headers['if-none-match'], source.etag)) {
    source.discard();
    return reply.code(304).headers(common).send();
  }

  const ifRange = request.headers['if-range'];
  const rangeAllowed = typeof ifRange === 'string' ? ifRangeAllows(ifRange, source.etag) : ifRange === undefined;
  const range = rangeAllowed
    ? parseRange(request.headers.range, source.size)
    : ({ kind: 'ignore' } as const);
  if (range.kind === 'unsatisfiable') {
    source.discard();
    throw errors.rangeNotSatisfiable(source.size);
  }

  const [start, end] = range.kind === 'range' ? [range.start, range.end] : [0, source.size - 1];
  reply.headers({
    ...common,
    'content-type': source.contentType,
    'content-disposition': contentDisposition(source.filename, source.contentType),
    'content-length': String(Math.max(0, end - start + 1)),
  });
  if (range.kind === 'range') {
    reply.code(206).header('content-range', `bytes ${start}-${end}/${source.size}`);
  }
  if (source.size === 0) {
    source.discard();
    return reply.send(Buffer.alloc(0));
  }
  return reply.send(source.read(start, end));
}
