import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

describe('request limits and client addresses', () => {
  it('answers 413 in the contract shape for a body over 100 KiB, and 400 for malformed JSON', async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    const big = JSON.stringify({ deviceId: 'device-0001', challengeId: '00000000-0000-4000-8000-000000000000', score: 1, pad: 'x'.repeat(101 * 1024) });
    const tooLarge = await app.inject({ method: 'POST', url: '/public/challenges/complete', headers: { 'content-type': 'application/json' }, payload: big });
    assert.equal(tooLarge.statusCode, 413);
    assert.equal(tooLarge.json().error, 'Payload Too Large');
    assert.equal(tooLarge.json().statusCode, 413);
    assert.match(tooLarge.json().message, /100 Kio/);
    assert.equal(tooLarge.json().code, 'payloadTooLarge');
    assert.equal(tooLarge.json().field, null);

    const malformed = await app.inject({ method: 'POST', url: '/public/challenges/complete', headers: { 'content-type': 'application/json' }, payload: '{"deviceId": ' });
    assert.equal(malformed.statusCode, 400);
    assert.deepEqual(Object.keys(malformed.json()).sort(), ['code', 'error', 'field', 'message', 'statusCode']);
    assert.match(malformed.json().message, /JSON/);
    assert.equal(malformed.json().code, 'invalidJson');
    assert.equal(malformed.json().field, null);
  });

  it('counts clients by X-Forwarded-For only when TRUST_PROXY is set', async (t) => {
    const send = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], ip: string) =>
      app.inject({ url: '/public/city-groups', headers: { 'x-forwarded-for': ip } });

    const { app: behindProxy } = await buildTestApp(t, 'pglite', { env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' } });
    assert.equal((await send(behindProxy, '203.0.113.1')).statusCode, 200);
    assert.equal((await send(behindProxy, '203.0.113.1')).statusCode, 200);
    assert.equal((await send(behindProxy, '203.0.113.1')).statusCode, 429);
    assert.equal((await send(behindProxy, '203.0.113.2')).statusCode, 200, 'another client behind the balancer has its own budget');

    const { app: direct } = await buildTestApp(t, 'pglite', { env: { RATE_LIMIT_MAX: '2' } });
    assert.equal((await send(direct, '203.0.113.1')).statusCode, 200);
    assert.equal((await send(direct, '203.0.113.2')).statusCode, 200);
    assert.equal((await send(direct, '203.0.113.3')).statusCode, 429, 'a forged header does not buy a new budget');
  });
});
