import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';

/** TRUST_PROXY as the configuration reads it: none, a hop count, or addresses and ranges. */
type TrustProxy = FastifyInstance['config']['trustProxy'];

/** Whether to believe the proxy at `address`, `hop` proxies from this server (0: the socket's peer). */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Fastify's trustProxy for TRUST_PROXY. Fastify 5 trusts nothing when given a bare number (a hop count cannot tell a
 * proxy from a client that reaches the service directly), so a hop count is a function trusting the nearest hops:
 * right only where the service can be reached through those proxies alone (docs/operating.md). Addresses and ranges
 * are a list.
 */
export function trustProxyOption(trust: TrustProxy): false | string[] | TrustFunction {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** Who sent a request and how, read from the raw request as Fastify's `request.ip` and `request.protocol` read it. */
export interface ClientAddress {
  /** The client's address: the socket's peer, or the nearest address in X-Forwarded-For that TRUST_PROXY does not trust. */
  ip(request: IncomingMessage): string | undefined;
  /** Whether the client came over HTTPS: a TLS socket, or `X-Forwarded-Proto: https` from a trusted peer. */
  isHttps(request: IncomingMessage): boolean;
}

/** The last value of a header a chain of proxies may have sent several times (`a, b`), as Fastify reads it. */
function lastEntry(value: string): string {
  const at = value.lastIndexOf(',');
  return at === -1 ? value.trim() : value.slice(at + 1).trim();
}

/**
 * The reading of a request's client for answers written before Fastify makes its request object (request-entry.ts's
 * early hits). The same rules as Fastify's, on the same library (@fastify/proxy-addr, Fastify's own), from the same
 * option; test/http/client-address.test.ts holds the two together.
 */
export function clientAddress(trust: TrustProxy): ClientAddress {
  const option = trustProxyOption(trust);
  if (option === false) {
    return {
      ip: (request) => request.socket?.remoteAddress,
      isHttps: (request) => (request.socket as TLSSocket | undefined)?.encrypted === true,
    };
  }
  const trusted: TrustFunction = typeof option === 'function' ? option : proxyAddr.compile(option);
  return {
    ip(request) {
      const addresses = proxyAddr.all(request, trusted);
      return addresses[addresses.length - 1];
    },
    isHttps(request) {
      const socket = request.socket as TLSSocket | undefined;
      const forwarded = request.headers['x-forwarded-proto'];
      if (typeof forwarded === 'string' && forwarded !== '' && socket != null && trusted(socket.remoteAddress!, 0)) return lastEntry(forwarded) === 'https';
      return socket?.encrypted === true;
    },
  };
}
