import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * RFC 8288 `Link: <…?before=…>; rel="next"`: where the next page of a cursor-paginated list is, on the request's own
 * path. Browsers may read it on /public (`Link` is among the CORS exposed headers, public-headers.ts).
 */
export function setNextPageLink(request: FastifyRequest, reply: FastifyReply, query: Record<string, string>): void {
  const path = request.url.split('?')[0];
  reply.header('link', `<${path}?${new URLSearchParams(query)}>; rel="next"`);
}
