import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { errors } from '../kernel/errors.ts';

/**
 * The SSRF rule of docs/api.md, reminders: a push endpoint is posted to by the server on an anonymous request, so it
 * must not reach the city's own network. Refused: loopback, private, link-local, unique-local, CGNAT, documentation,
 * multicast and reserved ranges, and the IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4).
 * Checked when a subscription is made, and again on every connection (the request's own DNS lookup), so that a name
 * that later resolves elsewhere (DNS rebinding) is refused too.
 */

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

// Two lists: BlockList matches an IPv4 address against IPv6 rules for the IPv4-carrying prefixes (::/96, ::ffff:0:0/96).
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a translator
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC_V6.addSubnet(net, prefix, 'ipv6');
}

/** Whether the server may post to this address: public, or loopback when the tests' insecure mode allows it. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (allowLoopback && LOOPBACK.check(address, family)) return true;
  return !(family === 'ipv4' ? NOT_PUBLIC_V4 : NOT_PUBLIC_V6).check(address, family);
}

/** A URL's host name without the brackets of an IPv6 literal. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Refuses (400) an endpoint that is not https (http too in the tests' insecure mode) or that resolves to an address the server must not reach. */
export async function checkPushEndpoint(endpoint: string, allowInsecure: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw errors.reminderEndpointScheme();
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) throw errors.reminderEndpointScheme();
  if (url.username || url.password) throw errors.reminderEndpointScheme();
  const host = bareHost(url);
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw errors.reminderEndpointUnresolved();
    }
  }
  if (addresses.length === 0) throw errors.reminderEndpointUnresolved();
  if (!addresses.every((address) => isAllowedAddress(address, allowInsecure))) throw errors.reminderEndpointPrivate();
}

/** A DNS lookup for http.request that fails the connection when a name resolves to an address the server must not reach. */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const list = found as unknown as dns.LookupAddress[];
      const refused = list.find((entry) => !isAllowedAddress(entry.address, allowLoopback));
      if (refused) {
        const error = Object.assign(new Error(`push endpoint ${hostname} resolves to a non-public address ${refused.address}`), {
          code: 'EREFUSEDADDRESS',
        });
        return callback(error, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
