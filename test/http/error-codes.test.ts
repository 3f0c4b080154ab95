import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { seedCities, ids } from '../helpers/city-fixtures.ts';
import { errors } from '../../src/kernel/errors.ts';

// docs/api.md, conventions: every error body carries `code` (the catalogue's stable name of the kind) and `field` (the
// faulty field's JSON name or path, or null), so that clients never read the French sentence.

const KEYS = ['code', 'error', 'field', 'message', 'statusCode'];

describe('error codes and fields', () => {
  it('names the kind and the faulty field, nested paths included, on every kind of failure', async (t) => {
    const { app, database } = await buildTestApp(t, 'pglite');
    await seedCities(database.db);
    const subscribe = (payload: unknown) => app.inject({ method: 'POST', url: '/public/reminders/subscriptions', payload: payload as object });
    const base = { deviceId: 'device-0123456789', cityId: ids.brest, placeId: ids.placeCentre, channel: 'WEB_PUSH' };

    const cases: [label: string, res: Awaited<ReturnType<typeof app.inject>>, code: string, field: string | null, status: number][] = [
      ['unknown route', await app.inject('/public/nope'), 'routeNotFound', null, 404],
      ['unknown city', await app.inject(`/public/cities/${ids.inactive}`), 'cityNotFound', null, 404],
      ['malformed path id', await app.inject('/public/cities/not-a-uuid'), 'validation', 'id', 400],
      ['malformed JSON', await app.inject({ method: 'POST', url: '/public/reminders/subscriptions', headers: { 'content-type': 'application/json' }, payload: '{"a":' }), 'invalidJson', null, 400],
      ['missing body field', await subscribe({ ...base, channel: undefined }), 'validation', 'channel', 400],
      [
        'nested field',
        await subscribe({ ...base, webPush: { endpoint: 'https://push.example.com/x', keys: { p256dh: 42, auth: 'x' } } }),
        'validation', 'webPush.keys.p256dh', 400,
      ],
      ['array item', await subscribe({ ...base, wasteTypeIds: [ids.wasteOm, 'nope'] }), 'validation', 'wasteTypeIds[1]', 400],
      ['a rule of the service', await subscribe({ ...base, webPush: null }), 'reminderWebPushMissing', 'webPush', 400],
      ['query parameter', await app.inject(`/public/cities/${ids.brest}/places/${ids.placeCentre}/collections?from=2026-03-10&to=2026-03-01`), 'dateOrder', 'to', 400],
      ['NUL character', await subscribe({ ...base, deviceId: 'device\u0000012345' }), 'validation', 'deviceId', 400],
      ['admin on a server without logins', await app.inject('/admin/users'), 'authNotConfigured', null, 401],
    ];
    for (const [label, res, code, field, status] of cases) {
      assert.equal(res.statusCode, status, `${label}: ${res.body}`);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), KEYS, label);
      assert.equal(body.code, code, label);
      assert.equal(body.field, field, label);
      if (field !== null) assert.ok(body.message.includes(field.split(/[.[]/)[0]), `${label}: the sentence names the field too`);
    }
  });

  it('gives every error of the catalogue a camelCase code, and 428, 412 and 429 their contract codes', () => {
    const samples = [
      errors.preconditionRequired(), errors.preconditionFailed(), errors.tooManyRequests(3), errors.loginThrottled(60),
      errors.cityNotFound(), errors.invalidField('attributes.volume', 'doit être un nombre'), errors.badRequest(),
    ];
    for (const error of samples) assert.match(error.code, /^[a-z][a-zA-Z]*$/);
    assert.deepEqual(samples.slice(0, 4).map((e) => [e.statusCode, e.code]), [
      [428, 'preconditionRequired'], [412, 'preconditionFailed'], [429, 'rateLimited'], [429, 'rateLimited'],
    ]);
    assert.equal(samples[5].field, 'attributes.volume');
    assert.equal(samples[5].code, 'validation');
  });
});
