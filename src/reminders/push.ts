import { createHash } from 'node:crypto';
import type http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type WebPush from 'web-push';
import { guardedLookup, isAllowedAddress } from './endpoint-guard.ts';

/** Longest wait for a push service's answer; past it the delivery is retried later. */
const PUSH_TIMEOUT_MS = 10_000;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** Seconds the push service may keep the message (no longer than until the collection day begins). */
  ttl: number;
  /** Replaces an undelivered message with the same topic: a retry after a crash never shows twice. */
  topic: string;
  allowInsecure: boolean;
  /** Keep-alive agents of the sending worker (one connection per push service is reused for a whole evening). */
  agents: PushAgents;
}

export interface PushAgents {
  http: http.Agent;
  https: https.Agent;
  /** The `Authorization: vapid t=…, k=…` header for a push service's origin, signed once and reused for an hour. */
  vapidAuthorization(audience: string, vapid: PushOptions['vapid']): Promise<string>;
  destroy(): void;
}

/**
 * How long one signed VAPID token is reused for a push service. web-push signs it valid for 12 hours (RFC 8292 allows
 * 24); signing costs about as much as encrypting a payload, so an evening's messages to one service share one.
 */
const VAPID_REUSE_MS = 60 * 60_000;

/**
 * web-push, loaded at the first push rather than at start: with its asn1.js, bn.js, http_ece and jws it weighs about
 * 1.6 MiB of heap, held for nothing by an instance that has no push to send.
 */
let webPushModule: Promise<typeof WebPush> | undefined;
// A CommonJS package: its API is the namespace's default (the types describe it as named exports).
const loadWebPush = () => (webPushModule ??= import('web-push').then((loaded) => (loaded as unknown as { default: typeof WebPush }).default));

/**
 * node:http's CommonJS exports. Imported as an ES module, its namespace reads every export, among them the lazy
 * `WebSocket`, `CloseEvent` and `MessageEvent`, and so loads Node's fetch (undici): some MiB held for nothing.
 */
const plainHttp = process.getBuiltinModule('node:http');

/** Agents and VAPID tokens of one worker; destroyed when it stops. */
export function createPushAgents(): PushAgents {
  const agents = { http: new plainHttp.Agent({ keepAlive: true, maxSockets: 32 }), https: new https.Agent({ keepAlive: true, maxSockets: 32 }) };
  const tokens = new Map<string, { header: string; signedAt: number }>();
  return {
    ...agents,
    async vapidAuthorization(audience, vapid) {
      // Awaited before the cache is read, so that a burst of sends finds the token the first one signed.
      const webPush = await loadWebPush();
      // The token's validity is checked by the push service against real time: the real clock, not the injected one.
      const key = `${audience} ${vapid.publicKey}`;
      const cached = tokens.get(key);
      if (cached && Date.now() - cached.signedAt < VAPID_REUSE_MS) return cached.header;
      const { Authorization: header } = webPush.getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm') as { Authorization: string };
      tokens.set(key, { header, signedAt: Date.now() });
      return header;
    },
    destroy: () => (agents.http.destroy(), agents.https.destroy(), tokens.clear()),
  };
}

export interface PushAnswer {
  status: number;
  /** The push service's Retry-After, when it gave one. */
  retryAfter: string | null;
}

/** A Topic header (RFC 8030: at most 32 base64url characters) derived from what makes a message unique. */
export function pushTopic(...parts: string[]): string {
  return createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 32);
}

/**
 * Encrypts (aes128gcm, RFC 8291) and signs (VAPID, RFC 8292) with web-push's helpers, and posts with Node's own
 * client, so that each connection goes through the SSRF guard (a name resolving to a private address fails) and http
 * works in the tests' insecure mode. Rejects on a network failure; answers the push service's status otherwise.
 */
export async function sendPush(target: PushTarget, payload: string, options: PushOptions): Promise<PushAnswer> {
  const url = new URL(target.endpoint);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'https:' && !(options.allowInsecure && url.protocol === 'http:')) throw new Error('push endpoint is not https');
  if (isIP(host) && !isAllowedAddress(host, options.allowInsecure)) throw new Error(`push endpoint ${host} is not a public address`);
  const webPush = await loadWebPush();
  const encrypted = webPush.encrypt(target.p256dh, target.auth, payload, 'aes128gcm');
  const details = {
    body: encrypted.cipherText,
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Encoding': 'aes128gcm',
      'Content-Length': String(encrypted.cipherText.length),
      TTL: String(options.ttl),
      Topic: options.topic,
      Urgency: 'normal',
      Authorization: await options.agents.vapidAuthorization(url.origin, options.vapid),
    },
  };
  const secure = url.protocol === 'https:';
  const client = secure ? https : plainHttp;
  return new Promise<PushAnswer>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: details.headers,
        lookup: guardedLookup(options.allowInsecure),
        timeout: PUSH_TIMEOUT_MS,
        agent: secure ? options.agents.https : options.agents.http,
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('push service timed out')));
    request.on('error', reject);
    request.end(details.body);
  });
}
