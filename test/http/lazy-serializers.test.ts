import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lazySerializers } from '../../src/http/lazy-compilers.ts';

// Response serializers are shared by the apps a process builds, by what they are built from: the schema's text and
// the app's shared schemas. Two schemas that differ, or one schema read against other shared schemas, must never
// share a serializer.

type Route = Parameters<ReturnType<typeof lazySerializers>>[0];
const route = (schema: unknown): Route => ({ schema, method: 'GET', url: '/', httpStatus: '200' }) as Route;
const serializer = (external: Record<string, unknown>, schema: unknown) => lazySerializers(external, undefined)(route(schema));

describe('response serializers shared between apps', () => {
  const named = { type: 'object', properties: { name: { type: 'string' } } };
  const data = { name: 'Brest', secret: 'jeton' };

  it('serialize alike for the same schema, built by two apps from two objects', () => {
    const first = serializer({}, structuredClone(named));
    const second = serializer({}, structuredClone(named));
    assert.equal(first(data), '{"name":"Brest"}');
    assert.equal(second(data), '{"name":"Brest"}');
  });

  it('keep apart two schemas that differ in one field', () => {
    const withSecret = { type: 'object', properties: { name: { type: 'string' }, secret: { type: 'string' } } };
    assert.equal(serializer({}, named)(data), '{"name":"Brest"}');
    assert.equal(serializer({}, withSecret)(data), '{"name":"Brest","secret":"jeton"}');
    assert.equal(serializer({}, structuredClone(named))(data), '{"name":"Brest"}');
  });

  it('keep apart one schema read against different shared schemas', () => {
    const reference = { $ref: 'Place#' };
    const byName = { Place: { $id: 'Place', type: 'object', properties: { name: { type: 'string' } } } };
    const bySecret = { Place: { $id: 'Place', type: 'object', properties: { secret: { type: 'string' } } } };
    assert.equal(serializer(byName, reference)(data), '{"name":"Brest"}');
    assert.equal(serializer(bySecret, structuredClone(reference))(data), '{"secret":"jeton"}');
  });
});
