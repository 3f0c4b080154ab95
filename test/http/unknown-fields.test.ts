import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { Ajv } from 'ajv';
import { withUnknownFieldsDropped } from '../../src/http/unknown-fields.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';

/**
 * The contract's rule for unknown body fields: ignored. A handler never sees them, so that no store can write a
 * field a client added (a merged patch once wrote another group's id into a request type, and the database refused
 * it with a 500).
 */

describe('a body’s unknown fields, dropped by its validator', () => {
  const ajv = new Ajv({ removeAdditional: true, strict: false });
  const check = (schema: object, body: unknown) => {
    const data = structuredClone(body);
    assert.equal(ajv.compile(withUnknownFieldsDropped(schema))(data), true);
    return data;
  };

  it('drops what a plain object, nested or in a list, does not name', () => {
    const schema = Type.Object({
      name: Type.String(),
      place: Type.Optional(Type.Union([Type.Object({ id: Type.String() }), Type.Null()])),
      fields: Type.Array(Type.Object({ code: Type.String() })),
    });
    assert.deepEqual(
      check(schema, { name: 'a', cityGroupId: 'b', place: { id: 'p', extra: 1 }, fields: [{ code: 'c', label: 'x' }] }),
      { name: 'a', place: { id: 'p' }, fields: [{ code: 'c' }] },
    );
    assert.deepEqual(check(schema, { name: 'a', place: null, fields: [] }), { name: 'a', place: null, fields: [] });
  });

  it('keeps maps, free objects and the branches of a choice between objects as written', () => {
    const schema = Type.Object({
      attributes: Type.Record(Type.String(), Type.String()),
      answers: Type.Object({}, { additionalProperties: Type.Number() }),
      settings: Type.Object({ color: Type.Optional(Type.String()) }, { additionalProperties: true }),
      either: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]),
    });
    const body = { attributes: { motif: 'x' }, answers: { q1: 2 }, settings: { color: 'red', font: 'serif' }, either: { b: 'y' } };
    assert.deepEqual(check(schema, body), body);
  });

  it('leaves the route’s own schema, which the OpenAPI document shows, unchanged', () => {
    const schema = Type.Object({ name: Type.String() });
    const before = JSON.stringify(schema);
    withUnknownFieldsDropped(schema);
    assert.equal(JSON.stringify(schema), before);
    assert.equal(withUnknownFieldsDropped(schema), withUnknownFieldsDropped(schema), 'one copy per schema');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`unknown body fields through the API (${kind})`, () => {
    it('ignores them in a change and a creation: a request type stays in its group', async (t) => {
      const { app, asAgent } = await requestsApp(t, kind, { clock: fixedClock(MONDAY_AFTERNOON) });
      const created = await inject(app, asAgent, 'POST', `/admin/city-groups/${ids.group}/request-types`, {
        code: 'sac-jaune', name: 'Demande de sacs jaunes', category: 'BAC', targetHours: 72,
        cityGroupId: ids.emptyGroup, id: '00000000-0000-4000-8000-000000000000', surprise: { nested: true },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().cityGroupId, ids.group);
      assert.notEqual(created.json().id, '00000000-0000-4000-8000-000000000000');

      const url = `/admin/request-types/${created.json().id}`;
      const changed = await inject(app, { ...asAgent, 'if-match': '*' }, 'PATCH', url, {
        name: 'Sacs jaunes', cityGroupId: -2147483627, status: 'WAITING_AGENT', createdAt: '2001-01-01T00:00:00.000Z', extra: true,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      const stored = (await inject(app, asAgent, 'GET', url)).json();
      assert.deepEqual([stored.name, stored.cityGroupId, stored.createdAt], ['Sacs jaunes', ids.group, created.json().createdAt]);
      assert.equal('extra' in stored || 'status' in stored, false);
    });

    it('ignores them where a body is closed too: the content check', async (t) => {
      const { app, asRoot } = await requestsApp(t, kind);
      const checked = await inject(app, asRoot, 'POST', '/admin/content/check', { content: '# Titre', draft: true });
      assert.equal(checked.statusCode, 200, checked.body);
      assert.equal(checked.json().valid, true);
    });
  });
}
