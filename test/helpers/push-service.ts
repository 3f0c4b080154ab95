import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';

/**
 * A Web Push service for tests, on loopback: it checks each request's VAPID JWT (RFC 8292: ES256, `aud` the
 * endpoint's origin, signed by the key in `k=`) and decrypts its aes128gcm payload (RFC 8188, RFC 8291) with the
 * subscriber's private key and auth secret, as a browser would. A request it cannot verify or decrypt answers 400
 * and is recorded with its error, so that a test sees it.
 */

/** A browser's side of a subscription: what it sends us (`keys`) and what only it knows (to decrypt). */
export interface Subscriber {
  name: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  privateKey: Buffer;
  publicKey: Buffer;
  authSecret: Buffer;
}

export interface ReceivedPush {
  subscriber: string;
  headers: http.IncomingHttpHeaders;
  /** The decrypted payload, parsed. */
  payload: { title: string; body: string; url: string; tag: string } | null;
  /** The VAPID public key the request was signed with (k=). */
  vapidKey: string | null;
  /** Why the request was refused (bad JWT, undecryptable payload), else null. */
  error: string | null;
  /** The status this service answered. */
  status: number;
}

export interface PushService {
  origin: string;
  received: ReceivedPush[];
  /** A subscriber whose endpoint is on this service. */
  subscriber(name: string): Subscriber;
  /** The next answers for a subscriber's endpoint, in order (then 201): `{status: 429, retryAfter: '0'}`, `{status: 410}`. */
  respond(name: string, answers: Array<{ status: number; retryAfter?: string }>): void;
  /** Called with each request once verified, before it is answered. */
  onReceive: ((push: ReceivedPush) => void) | null;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 section 3.4 and RFC 8188 section 2: one record, its padding delimiter removed. */
export function decryptAes128gcm(body: Buffer, subscriber: Pick<Subscriber, 'privateKey' | 'publicKey' | 'authSecret'>): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid of ${idLength} bytes, expected the sender's 65-byte public key`);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(subscriber.privateKey);
  const sharedSecret = ecdh.computeSecret(senderPublic);
  const prkKey = hmac(subscriber.authSecret, sharedSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.publicKey, senderPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('last record without its 0x02 delimiter');
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292) for an endpoint of `origin`; answers the key. */
async function verifyVapid(header: string | undefined, origin: string): Promise<string> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [, token, key] = match;
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k= is not an uncompressed P-256 point');
  const jwk = { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') };
  const { payload, protectedHeader } = await jwtVerify(token, await importJWK(jwk, 'ES256'), { audience: origin, algorithms: ['ES256'] });
  if (protectedHeader.alg !== 'ES256') throw new Error('not ES256');
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub)) throw new Error(`bad sub ${payload.sub}`);
  if (typeof payload.exp !== 'number' || payload.exp * 1000 > Date.now() + 24 * 3_600_000 + 60_000) throw new Error('exp over 24 hours');
  return key;
}

export async function startPushService(): Promise<PushService> {
  const subscribers = new Map<string, Subscriber>();
  const answers = new Map<string, Array<{ status: number; retryAfter?: string }>>();
  const received: ReceivedPush[] = [];
  let origin = '';
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const name = decodeURIComponent((request.url ?? '').replace(/^\/push\//, ''));
      const subscriber = subscribers.get(name);
      const entry: ReceivedPush = { subscriber: name, headers: request.headers, payload: null, vapidKey: null, error: null, status: 201 };
      try {
        if (request.method !== 'POST' || !subscriber) throw new Error(`unexpected ${request.method} ${request.url}`);
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('Content-Encoding is not aes128gcm');
        if (!/^\d+$/.test(String(request.headers.ttl))) throw new Error('no TTL');
        entry.vapidKey = await verifyVapid(request.headers.authorization, origin);
        entry.payload = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), subscriber).toString('utf8'));
      } catch (err) {
        entry.error = (err as Error).message;
        entry.status = 400;
      }
      const next = entry.error ? undefined : answers.get(name)?.shift();
      if (next) entry.status = next.status;
      received.push(entry);
      service.onReceive?.(entry);
      response.writeHead(entry.status, next?.retryAfter !== undefined ? { 'retry-after': next.retryAfter } : {});
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service: PushService = {
    origin,
    received,
    onReceive: null,
    subscriber(name) {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const subscriber: Subscriber = {
        name,
        endpoint: `${origin}/push/${encodeURIComponent(name)}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') },
        privateKey: ecdh.getPrivateKey(),
        publicKey,
        authSecret,
      };
      subscribers.set(name, subscriber);
      return subscriber;
    },
    respond(name, list) {
      answers.set(name, [...(answers.get(name) ?? []), ...list]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return service;
}
