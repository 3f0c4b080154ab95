import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Clock } from '../../src/app.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import { streetKey } from '../../src/kernel/address.ts';
import { ids, uuid } from './city-fixtures.ts';
import { requestsApp } from './request-fixtures.ts';

/**
 * Open311's tests (docs/api.md, Open311): the requests' fixtures (two groups, Brest with Centre-ville found by the
 * attached location « Rue de Siam » at 48.3897, -4.4875 and Secteur Nord by its street rule « Rue Jean Jaurès »), a
 * key of each group made by the super admin, and GeoReport v2's field lists, against which every answer is checked.
 */

/** Brest Métropole's SIREN: its `jurisdiction_id`. */
export const BREST_SIREN = '242900314';
export const ABER_SIREN = '200000001';
/** Near the attached location « Rue de Siam » of Centre-ville. */
export const SIAM = { lat: '48.3898', long: '-4.4876' };

/** GeoReport v2's fields (http://wiki.open311.org/GeoReport_v2), each answer's exactly. */
export const FIELDS = {
  discovery: ['changeset', 'contact', 'key_service', 'endpoints'],
  endpoint: ['specification', 'url', 'changeset', 'type', 'formats'],
  service: ['service_code', 'service_name', 'description', 'metadata', 'type', 'keywords', 'group'],
  serviceDefinition: ['service_code', 'attributes'],
  attribute: ['variable', 'code', 'datatype', 'required', 'datatype_description', 'order', 'description', 'values'],
  value: ['key', 'name'],
  requestCreated: ['service_request_id', 'service_notice', 'account_id'],
  request: [
    'service_request_id', 'status', 'status_notes', 'service_name', 'service_code', 'description', 'agency_responsible',
    'service_notice', 'requested_datetime', 'updated_datetime', 'expected_datetime', 'address', 'address_id', 'zipcode',
    'lat', 'long', 'media_url',
  ],
  error: ['code', 'description'],
} as const;

/** The standard's datatypes of an attribute. */
export const DATATYPES = ['string', 'number', 'datetime', 'text', 'singlevaluelist', 'multivaluelist'];

/** Asserts that `value` has exactly the standard's fields of `kind`. */
export function assertFields(value: unknown, kind: keyof typeof FIELDS, where = kind): void {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${where}: an object`);
  assert.deepEqual(Object.keys(value as object).sort(), [...FIELDS[kind]].sort(), `${where}: GeoReport v2's fields`);
}

/** An Open311 failure in JSON: `[{code, description}]` with the status as code and a French sentence. */
export function assertOpen311Error(response: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, names?: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body = JSON.parse(response.body) as { code: number; description: string }[];
  assert.ok(Array.isArray(body) && body.length === 1, response.body);
  assertFields(body[0], 'error');
  assert.equal(body[0].code, status);
  assert.match(body[0].description, /[a-zéèà]/);
  if (names !== undefined) assert.ok(body[0].description.includes(`«\u00a0${names}\u00a0»`) || body[0].description.includes(`« ${names} »`), `${body[0].description} names ${names}`);
}

/** The elements that are lists in GeoReport v2's XML. */
const LIST_ELEMENTS = new Set(['service', 'request', 'error', 'endpoint', 'format', 'attribute', 'value']);
const parser = new XMLParser({ isArray: (name) => LIST_ELEMENTS.has(name), parseTagValue: false, ignoreDeclaration: true });

/** An XML answer validated and parsed: its one root element's name and content. */
export function parseXml(response: { statusCode: number; headers: Record<string, unknown>; body: string }): { root: string; content: any } {
  assert.match(String(response.headers['content-type']), /^text\/xml/, response.body);
  assert.equal(XMLValidator.validate(response.body), true, response.body);
  assert.match(response.body, /^<\?xml version="1.0" encoding="utf-8"\?>/);
  const parsed = parser.parse(response.body) as Record<string, unknown>;
  const roots = Object.keys(parsed);
  assert.equal(roots.length, 1, `one root: ${roots.join(', ')}`);
  return { root: roots[0], content: parsed[roots[0]] };
}

/** An XML failure: `<errors><error><code>…</code><description>…</description></error></errors>`. */
export function assertXmlError(response: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number): void {
  assert.equal(response.statusCode, status, response.body);
  const { root, content } = parseXml(response);
  assert.equal(root, 'errors');
  assert.deepEqual(Object.keys(content), ['error']);
  assert.equal(content.error.length, 1);
  assertFields(content.error[0], 'error');
  assert.equal(content.error[0].code, String(status));
}

/** A form body as GeoReport v2 posts it. */
export function form(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  return params.toString();
}

/** POST /open311/v2/requests.<format> with a form. */
export const postRequest = (app: FastifyInstance, fields: Record<string, string | string[]>, format: 'json' | 'xml' = 'json') =>
  app.inject({
    method: 'POST',
    url: `/open311/v2/requests.${format}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });

/** The requests' app with Secteur Nord's street rule and a key of each group (the super admin's, through the admin API). */
export async function open311App(t: Parameters<typeof requestsApp>[0], kind: DatabaseKind, options: { clock?: Clock } = {}) {
  const fixture = await requestsApp(t, kind, options);
  await fixture.db
    .insertInto('place_street')
    .values({ id: uuid(), place_id: ids.placeNord, street: 'Rue Jean Jaurès', street_key: streetKey('Rue Jean Jaurès'), from_number: null, to_number: null, side: 'ALL' })
    .execute();
  const makeKey = async (cityGroupId: string, name: string) => {
    const response = await fixture.app.inject({ method: 'POST', url: '/admin/open311-keys', headers: fixture.asRoot, payload: { cityGroupId, name } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; key: string };
  };
  const brestKey = await makeKey(ids.group, 'FixMyStreet Brest');
  const aberKey = await makeKey(ids.emptyGroup, 'Appli Aber');
  return { ...fixture, brestKey, aberKey, makeKey };
}
