import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, createPublicKey, verify } from 'node:crypto';
import webPush from 'web-push';
import { newVapidKeys } from '../../src/reminders/keys.ts';

describe('newVapidKeys', () => {
  it("makes pairs in web-push's form: an uncompressed P-256 point (65 bytes) and its private scalar (32), base64url", () => {
    // About 3 pairs in 256 have a leading zero byte in x, y or the scalar, which must be kept: 512 pairs meet one almost surely.
    for (let i = 0; i < 512; i++) {
      const { publicKey, privateKey } = newVapidKeys();
      assert.match(publicKey, /^[A-Za-z0-9_-]{87}$/);
      assert.match(privateKey, /^[A-Za-z0-9_-]{43}$/);
      const point = Buffer.from(publicKey, 'base64url');
      assert.equal(point.length, 65);
      assert.equal(point[0], 4, 'uncompressed');
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
      assert.deepEqual(ecdh.getPublicKey(), point, 'the public point is the private scalar’s');
    }
  });

  it('signs a VAPID token with web-push that the public key verifies', () => {
    const keys = newVapidKeys();
    const audience = 'https://push.example.org';
    const { Authorization } = webPush.getVapidHeaders(audience, 'mailto:rappels@collecte.invalid', keys.publicKey, keys.privateKey, 'aes128gcm') as {
      Authorization: string;
    };
    const [, token, k] = /^vapid t=([^,\s]+),\s*k=(\S+)$/.exec(Authorization)!;
    assert.equal(k, keys.publicKey);
    const [header, payload, signature] = token.split('.');
    const point = Buffer.from(keys.publicKey, 'base64url');
    const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
    const signed = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    assert.ok(signed, 'ES256 signature verifies');
    assert.equal(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).aud, audience);
  });
});
