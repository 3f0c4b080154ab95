import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Strict-Transport-Security: a year. Without includeSubDomains: the web app may be served at a city's own domain
 * (a CMS site's), and the policy would then force HTTPS on every other service of that city's subdomains.
 */
export const HSTS = 'max-age=31536000';
const HSTS_LINES = ['strict-transport-security', HSTS];

/**
 * Whether the request came over HTTPS: a TLS socket, or `X-Forwarded-Proto: https` from a proxy TRUST_PROXY trusts
 * (Fastify's `request.protocol`). A plain-HTTP answer never carries HSTS: browsers ignore it there (RFC 6797 8.1),
 * and a proxy-less client must not be able to ask for it.
 */
export const isHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * The extra header lines of a cached answer (request-entry.ts): `lines`, plus HSTS when the request came over HTTPS
 * (`request.protocol`, or ClientAddress.isHttps before Fastify's request exists). The cache's own header lines are
 * shared by HTTP and HTTPS requests to a URL, so HSTS is never among them.
 */
export function withTransportSecurity(https: boolean, lines: string[] | null): string[] | null {
  if (!https) return lines;
  return lines ? lines.concat(HSTS_LINES) : HSTS_LINES;
}

/**
 * HSTS on every answer to an HTTPS request that goes through Fastify's reply. Added on send, after the response
 * cache (conditional.ts, registered before this plugin) has taken the answer's headers: an entry filled by an HTTPS
 * request must not give HSTS to the plain-HTTP requests it later answers.
 */
async function transportSecurity(app: FastifyInstance) {
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (isHttps(request)) reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}

export default fp(transportSecurity, { name: 'collecte-transport-security', dependencies: ['collecte-conditional-responses'] });
