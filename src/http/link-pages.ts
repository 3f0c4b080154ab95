import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../kernel/errors.ts';

/**
 * The links e-mails carry (a reminder's confirm and unsubscribe, a request's tracking and unsubscribe): where they
 * start, and how their answers are given: a short French page to a browser, JSON to a client that asks for it.
 */

/** A Host header that is a host name (or an IPv6 literal) and an optional port: what a link may start with. */
const VALID_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The pages the links open: no script, no style sheet, a form posting to this origin. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/** Where the links of a message start: PUBLIC_BASE_URL, else the request's own origin (a bad Host: 400). */
export function linkOrigin(config: { publicBaseUrl: string | null }, request: FastifyRequest): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  if (!VALID_HOST.test(request.host)) throw errors.badHost();
  return `${request.protocol}://${request.host}`;
}

/** Whether the answer to a link is the HTML page (a browser) or JSON (any client that asks for JSON). */
export const wantsPage = (request: FastifyRequest) => {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
};

/** A link's answer: `page` for a browser, `json` otherwise. */
export function answerLink<T>(request: FastifyRequest, reply: FastifyReply, answer: { json: T; page: string }): T | FastifyReply {
  if (!wantsPage(request)) return answer.json;
  return reply.header('content-security-policy', PAGE_CSP).type('text/html; charset=utf-8').send(answer.page);
}

/**
 * RFC 8058: a mail client's one-click unsubscribe posts `List-Unsubscribe=One-Click` as a form; a page's button posts
 * an empty form. The token is in the URL: the body says nothing more, and is read no further.
 */
export function ignoreFormBodies(app: FastifyInstance, types: readonly string[] = ['application/x-www-form-urlencoded', 'multipart/form-data']): void {
  for (const type of types) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));
  }
}
