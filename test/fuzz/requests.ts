import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { DB } from '../../src/db/types.ts';
import { STATUS_NAMES } from '../../src/kernel/errors.ts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { schemaBody, schemaValue, type BodyContext, type BodySchema, type JsonSchema } from './schema-bodies.ts';

/** One route as the router knows it. */
export interface Route {
  method: string;
  url: string;
}

/** Ids and names that exist in the demo data. */
export interface DemoValues {
  cityIds: string[];
  inactiveCityIds: string[];
  cityGroupIds: string[];
  placeIds: string[];
  challengeIds: string[];
  blogPostIds: string[];
  pageIds: string[];
  menuIds: string[];
  mediaIds: string[];
  wasteTypeIds: string[];
  slugs: string[];
  menuLocations: string[];
  deviceIds: string[];
  conversationIds: string[];
  /** Signed links of reminder e-mails (`?token=`) that name an existing subscription; [] when none was made. */
  reminderTokens?: string[];
  /** The signed links of a request's e-mails (tracking and stop), when the setup made some. */
  requestTokens?: string[];
  /**
   * Path parameters that only make sense together (a city and one of its places, a site and one of its menus),
   * by parameter name: a route whose parameters are all named in one of them is sometimes aimed at it.
   */
  coherentParams: Array<Record<string, string>>;
  /** `Bearer …` values: valid console tokens (all groups, no group, no permission) when the console exists. */
  authorizations: string[];
  /** Names of the integer and number parameters (query or path) of every route, from the OpenAPI document. */
  numericParams: string[];
  /** The query parameters each operation of the OpenAPI document declares (`GET /public/cms/sites/{slug}/pages`). */
  declaredQueries: DeclaredQuery[];
  /** The ids of every table with a uuid `id` (records.ts `tableIds`): `/<collection>/:id` and `:<thing>Id` draw from them. */
  idsByTable: Record<string, string[]>;
  /** The JSON body schema of each operation of the OpenAPI document (schema-bodies.ts `bodySchemas`). */
  bodySchemas: BodySchema[];
  /**
   * The owners of each record up to its city group, the group last (records.ts `groupFinder`), when known: a
   * well-formed request's body then names records of the same city or group as its path, as a real client's would.
   */
  ancestors?: Map<string, Array<string | null>>;
  /**
   * By route (`GET /admin/sites/:id|:siteId/pages`), the `Bearer …` values its guard lets through: half of the
   * well-formed requests carry one, so that every route is seen answering whatever the seed.
   */
  admittedBy?: Map<string, string[]>;
  /** One request in this many goes without one of `authorizations` (default 2: half of them). */
  authorizationFreq?: number;
  /** The day the data describes, around which schema bodies draw their dates. */
  now?: Date;
}

/** The query parameters of one operation, by its method and OpenAPI path. */
export interface DeclaredQuery {
  method: string;
  path: string;
  names: string[];
  /** Each parameter's schema, as the document gives it. */
  schemas?: Record<string, JsonSchema>;
}

/** A generated request, kept as plain data so that fast-check prints it whole when it fails. */
export interface FuzzRequest {
  route: string;
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | null;
  remoteAddress: string;
  /** Whether it names records that exist, with the route's own method and parameters (it should reach the handler). */
  wellFormed: boolean;
  /**
   * An admin change or deletion whose `If-Match` is to be the record's ETag as it is just before the request is sent
   * (`withRecordEtag` reads it): a write that is really let through, unlike `*`, a stale tag or none (428).
   */
  readEtag?: boolean;
}

/**
 * Every method and path the router serves, read from `printRoutes` so that routes added later are fuzzed
 * without touching this file. A segment such as `:id|:cityId` names one parameter that routes call differently.
 */
export function collectRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const segment = match[2];
    stack.length = depth;
    stack.push(segment);
    const url = stack.join('');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()).filter(Boolean)) {
      routes.push({ method, url });
    }
  }
  return routes;
}

/**
 * The routes that answer a server-sent events stream (a `text/event-stream` 200 in the OpenAPI document): they last
 * as long as their reader, so the fuzz leaves them to their own tests, which read them over a real connection
 * (test/console/events.test.ts, test/requests/live.test.ts).
 */
export function withoutEventStreams(app: FastifyInstance, routes: Route[]): Route[] {
  const paths = (app.swagger() as { paths?: Record<string, Record<string, any>> }).paths ?? {};
  const streams = new Set<string>();
  for (const [path, operations] of Object.entries(paths)) {
    if (Object.values(operations).some((operation) => operation?.responses?.['200']?.content?.['text/event-stream'])) streams.add(path);
  }
  // By path, whatever the method: HEAD, which the document leaves out, streams as GET does.
  return routes.filter((r) => !streams.has(r.url));
}

/** Strings that have broken web services before: injection, traversal, encodings, sizes, look-alike values. */
const NASTY_VALUES = [
  "' OR 1=1 --",
  "1; DROP TABLE city; --",
  "'; SELECT pg_sleep(10); --",
  '" OR ""="',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '99999999999999999999999999999999',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '-1',
  '0',
  '1.5',
  '1e400',
  '-1e400',
  '0x10',
  'NaN',
  'Infinity',
  '-0',
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  'a\u0000b',
  '\u0000',
  'é',
  'Plouzané',
  '日本語',
  '😀🗑️♻️',
  '\u202eevil',
  '\ufeffbom',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%n%x',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '0d8a9bc9-104b-5b64-a127-357bd85689eZ',
  '0D8A9BC9-104B-5B64-A127-357BD85689EE',
  '{0d8a9bc9-104b-5b64-a127-357bd85689ee}',
  '0d8a9bc9104b5b64a127357bd85689ee',
  '2026-02-30',
  '2026-11-22',
  '2026-11-22T10:00:00Z',
  '0000-00-00',
  '9999-12-31',
  '+275760-09-13',
  '-000001-01-01',
  'SITE',
  'APP',
  'site',
  'x'.repeat(129),
  'x'.repeat(600),
  'é'.repeat(3000),
];

/** Pieces put into a URL as they are (not encoded): broken escapes, encoded NUL and slashes, dot segments. */
const RAW_URL_PIECES = [
  '%00',
  'a%00b',
  '%',
  '%%',
  '%E0%A4%A',
  '%ZZ',
  '%C0%AF',
  '%FF%FE',
  '%ED%A0%80',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '..',
  '.',
  '%2e',
  '%252e%252e',
  '%5C..%5C',
  '%20',
  '+',
  '%2B',
  '%3B',
  ';jsessionid=1',
  '%23',
  '%3F',
  '%0D%0ASet-Cookie:%20x=1',
  '%F0%9F%98%80',
  '%C3%A9',
];

/**
 * Numbers at and past the edges of what JavaScript and a schema take: Infinity (`1e309` parses as Infinity), NaN,
 * -0, beyond 2^53 and 2^31, past the page bound, fractions, other notations. Every numeric parameter gets them.
 */
const NUMERIC_EDGES = [
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '-0',
  '+0',
  '0',
  '1',
  '1e5',
  '100000',
  '100001',
  '1e400',
  '99999999999999999999',
  '9007199254740993',
  '-9007199254740993',
  '2147483648',
  '-2147483649',
  '1.5',
  '1.0',
  '1e-7',
  '0x10',
  '0b1',
  ' 1',
  '1 ',
  '１',
].map(encode);

const QUERY_KEYS = ['page', 'pageSize', 'type', 'from', 'to', 'cityId', 'cityGroupId', 'thumb', 'deviceId', 'placeId', 'status', 'assignedTo', 'id', 'q', 'token'];

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates become U+FFFD, as a browser would send). */
function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validFor(names: string[], previous: string, v: DemoValues): string[] {
  const chosen = [...new Set(names.flatMap((name) => validForName(name, previous, v)))];
  return chosen.length ? chosen : allValid(v);
}

/** Tables that a route's collection or parameter names otherwise than by its singular: `/users` lists accounts. */
const TABLE_ALIASES: Record<string, string> = { user: 'account' };

/** `blog-posts`, `blogPosts`, `blog_post_ids` → `blog_post` and its singular's candidates, most specific first. */
function singulars(name: string): string[] {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.at(-1) === 'ids' || words.at(-1) === 'id') words.pop();
  const last = words.at(-1);
  if (!last) return [];
  const forms = [...new Set([last, last.replace(/ies$/, 'y'), last.replace(/s$/, ''), last.replace(/es$/, '')])];
  // `requiredChallengeId` is a challenge: drop leading words until a table matches.
  const candidates: string[] = [];
  for (let start = 0; start < words.length; start++) {
    for (const form of forms) candidates.push([...words.slice(start, -1), form].join('_'));
  }
  return candidates;
}

/**
 * The table whose records a collection segment (`waste-types`, `places`) or an id parameter or field (`placeId`,
 * `cityGroupIds`) names, from the tables themselves: the singular's table, else the one table ending in it
 * (`places` → `collection_place`). Undefined when none does.
 */
export function tableFor(name: string, tables: readonly string[]): string | undefined {
  for (const candidate of singulars(name)) {
    const table = TABLE_ALIASES[candidate] ?? candidate;
    if (tables.includes(table)) return table;
    const ending = tables.filter((t) => t.endsWith(`_${table}`));
    if (ending.length === 1) return ending[0];
  }
  return undefined;
}

/** Ids of the records a path parameter names: by its own name, or for `:id` by the collection before it. */
function validForName(name: string, previous: string, v: DemoValues): string[] {
  const byName: Record<string, string[]> = {
    slug: v.slugs,
    location: v.menuLocations,
    deviceId: v.deviceIds,
  };
  if (Object.hasOwn(byName, name)) return byName[name];
  const table = tableFor(name === 'id' ? previous : name, Object.keys(v.idsByTable));
  return table ? v.idsByTable[table] : [];
}

function allValid(v: DemoValues): string[] {
  return [
    ...v.cityIds,
    ...v.cityGroupIds,
    ...v.placeIds,
    ...v.challengeIds,
    ...v.blogPostIds,
    ...v.pageIds,
    ...v.menuIds,
    ...v.mediaIds,
    ...v.wasteTypeIds,
    ...v.slugs,
    ...v.menuLocations,
    ...v.deviceIds,
    ...v.conversationIds,
  ];
}

/** A numeric parameter's value: an edge number half of the time, else what any text parameter gets. */
function numericValue(valid: string[], all: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...NUMERIC_EDGES) }, { weight: 1, arbitrary: textValue(valid, all) });
}

/** A text value as a client would put it in a path or a query: mostly encoded, sometimes raw. */
function textValue(valid: string[], all: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...all) },
    { weight: 2, arbitrary: fc.uuid({ version: [1, 4, 5, 7] }) },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_VALUES).map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_URL_PIECES) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...valid), fc.constantFrom(...RAW_URL_PIECES)).map(([a, b]) => a + b) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encode) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 700 }).map(encode) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
  );
}

/** Values of the route's parameters that only make sense together (a city and one of its places), where it names several. */
function coherentValues(segments: string[], v: DemoValues): string[][] {
  const names = segments.map((segment) => (segment.startsWith(':') ? segment.slice(1).split('|:') : null));
  if (names.filter(Boolean).length < 2) return [];
  return v.coherentParams
    .map((params) => names.map((alternatives, i) => (alternatives ? alternatives.map((n) => params[n]).find(Boolean) : segments[i])))
    .filter((values): values is string[] => values.every((value) => value !== undefined));
}

function pathArbitrary(route: Route, v: DemoValues): fc.Arbitrary<string> {
  const all = allValid(v);
  const segments = route.url.split('/').slice(1);
  const parts = segments.map((segment, i) => {
    if (segment === '*') return fc.oneof(fc.constantFrom('', 'index.html', 'x'), fc.constantFrom(...RAW_URL_PIECES));
    if (!segment.startsWith(':')) return fc.constant(segment);
    const names = segment.slice(1).split('|:');
    const valid = validFor(names, segments[i - 1] ?? '', v);
    return names.some((name) => v.numericParams.includes(name)) ? numericValue(valid, all) : textValue(valid, all);
  });
  const coherent = coherentValues(segments, v);
  const values = coherent.length ? fc.oneof(fc.tuple(...parts), fc.constantFrom(...coherent)) : fc.tuple(...parts);
  const ending = fc.oneof(
    { weight: 12, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('/', '//', '/x', '%00', '/%2e%2e', '.json', '/..', '?', '#x') },
  );
  const doubled = fc.oneof({ weight: 6, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat(segments.length - 1) });
  return fc
    .tuple(values, ending, doubled)
    .map(([values, end, doubled]) => {
      // Sometimes one slash is doubled: `/public//cities`.
      return values.map((value, i) => (i === doubled ? `//${value}` : `/${value}`)).join('') + end;
    });
}

/** A path to the route naming records that exist (together, where the route names several): requests that reach the handler. */
function validPathArbitrary(route: Route, v: DemoValues): fc.Arbitrary<string> {
  const segments = route.url.split('/').slice(1);
  const parts = segments.map((segment, i) => {
    if (segment === '*') return fc.constant('');
    if (!segment.startsWith(':')) return fc.constant(segment);
    return fc.constantFrom(...validFor(segment.slice(1).split('|:'), segments[i - 1] ?? '', v));
  });
  const coherent = coherentValues(segments, v);
  const values = coherent.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...coherent) }, { weight: 1, arbitrary: fc.tuple(...parts) })
    : fc.tuple(...parts);
  return values.map((list) => list.map((value) => `/${value}`).join(''));
}

/** Values of each query parameter: some that pass validation, some at its edges. */
function typicalQueryValues(v: DemoValues): Record<string, string[]> {
  return {
    page: ['1', '2', '100', '0', '-1', '1.5', '1e3', '2147483648', '99999999999999999999'],
    pageSize: ['1', '20', '100', '101', '0', '-5', '1e2', 'abc'],
    type: ['SITE', 'APP', 'site', 'BLOG'],
    from: ['2026-11-22', '2026-01-01', '2027-12-31', '2026-02-30', '2026-11-22T00:00:00Z', '1900-01-01', '99999-01-01'],
    to: ['2026-12-22', '2027-11-23', '2025-01-01', '2026-13-01'],
    thumb: ['1', '0', 'true', ''],
    status: ['OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED', 'open'],
    assignedTo: ['agent-1', 'fuzz-agent'],
    cityId: v.cityIds,
    cityGroupId: v.cityGroupIds,
    placeId: v.placeIds,
    deviceId: v.deviceIds,
    // GET /public/places/lookup: addresses and positions of the demo (Brest's centre).
    address: ['12%20rue%20de%20Siam', 'rue%20de%20la%20mairie', 'Place%20Gu%C3%A9rin', 'rue%20de%20si'],
    lat: ['48.39', '48.5'],
    lon: ['-4.49', '-4.4'],
    // The calendar feed's options.
    alarm: ['19%3A00', '25%3A61', 'soir', '7h'],
    cancelled: ['true', 'false', 'oui', ''],
    // The reminders' signed links: real ones, and forged or cut ones.
    token: [
      ...(v.reminderTokens ?? []),
      ...(v.requestTokens ?? []),
      'garbage',
      'eyJzIjoieCJ9.AAAA',
      ...[...(v.reminderTokens ?? []), ...(v.requestTokens ?? [])].map((t) => t.slice(0, -2)),
    ],
  };
}

/** Values of each query parameter that pass validation, for requests meant to go all the way. */
function validQueryValues(v: DemoValues): Record<string, string[]> {
  return {
    page: ['1', '2'],
    pageSize: ['1', '20', '100'],
    type: ['SITE', 'APP'],
    from: ['2026-11-22', '2026-12-01'],
    to: ['2026-12-22', '2027-01-31'],
    thumb: ['0', '1'],
    status: ['OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED'],
    assignedTo: ['fuzz-agent', 'agent-1'],
    cityId: v.cityIds,
    cityGroupId: v.cityGroupIds,
    placeId: v.placeIds,
    deviceId: v.deviceIds,
    // GET /public/places/lookup: addresses and positions of the demo (Brest's centre).
    address: ['12%20rue%20de%20Siam', 'rue%20de%20la%20mairie', 'Place%20Gu%C3%A9rin', 'rue%20de%20si'],
    lat: ['48.39', '48.5'],
    lon: ['-4.49', '-4.4'],
    // The calendar feed's options.
    alarm: ['19%3A00', '07%3A30'],
    cancelled: ['true', 'false'],
    ...(v.reminderTokens?.length ? { token: v.reminderTokens } : {}),
    ...(v.requestTokens?.length ? { requestTokens: v.requestTokens } : {}),
    // A message id as a page cursor; one of the conversation read only by chance.
    before: v.idsByTable.message?.length ? v.idsByTable.message : v.conversationIds,
  };
}

/** Pairs joined into a query string, in one of the ways clients write them. */
function joinPairs(pairs: fc.Arbitrary<Array<[string, string, string]>>): fc.Arbitrary<string> {
  return fc.tuple(pairs, fc.constantFrom('&', '&', '&&', ';')).map(([list, sep]) =>
    // One pass over the shape, so that a key holding a `v` (`deviceId`) is not itself taken for the value's place.
    list.map(([k, value, shape]) => shape.replace(/k|v2|v/g, (slot) => (slot === 'k' ? k : slot === 'v2' ? value.split('').reverse().join('') : value))).join(sep),
  );
}

/** Any query string: known and random keys, valid and hostile values, odd shapes. */
function queryArbitrary(v: DemoValues): fc.Arbitrary<string> {
  const all = allValid(v);
  const typical = typicalQueryValues(v);
  const keys = [...new Set([...QUERY_KEYS, ...v.numericParams])];
  // One value arbitrary per known key, built once; a random key gets any value.
  const valueFor = new Map(
    keys.map((key) => {
      const valid = Object.hasOwn(typical, key) ? typical[key] : all;
      return [key, v.numericParams.includes(key) ? numericValue(valid, all) : textValue(valid, all)] as const;
    }),
  );
  const anyValue = textValue(all, all);
  const keyChoices = [
    { weight: 6, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map(encode) },
  ];
  // The numeric parameters more often than the others: their edges are where servers break.
  if (v.numericParams.length) keyChoices.push({ weight: 2, arbitrary: fc.constantFrom(...v.numericParams) });
  const shape = fc.constantFrom('k=v', 'k=v', 'k=v', 'k', 'k=', 'k[]=v', 'k[a]=v', 'k=v&k=v2');
  const pair = fc.oneof(...keyChoices).chain((k) => fc.tuple(fc.constant(k), valueFor.get(k) ?? anyValue, shape));
  return joinPairs(fc.array(pair, { maxLength: 5 }));
}

/**
 * A query string with some of the route's own parameters, each with a value that passes validation: one of the known
 * values of its name, or one drawn from its schema in the API document.
 */
/**
 * Routes whose query parameters come in forms that exclude each other (docs/api.md, from an address to a collection place: an address with its city,
 * or a position with or without a city): a well-formed request takes one whole form, with known values, so that it
 * goes past the route's own checks whatever the seed. Drawing each parameter on its own mostly mixes the forms (400).
 */
const QUERY_FORMS: Record<string, string[][]> = {
  '/public/places/lookup': [['cityId', 'address'], ['lat', 'lon'], ['cityId', 'lat', 'lon']],
  // `before` is a cursor only a message of that very conversation satisfies: half the draws go without it.
  '/public/chat/conversations/:id/messages': [[], ['before']],
  // A request's links take its own tokens (`token` drawn from `requestTokens`), not the reminders'.
  '/public/requests/track': [['token:requestTokens']],
  '/public/requests/unsubscribe': [['token:requestTokens']],
  // A notice's audience needs its group; its cities and places drawn on their own rarely all belong to it (400).
  '/admin/notices/audience': [['cityGroupId']],
  // Three options, each drawn from the whole id pool otherwise: with a place of another city besides, the 40 draws of
  // a seed could all be refused. Its `wasteTypeId` filter is fuzzed by the other requests.
  '/public/cities/:id/places/:placeId/calendar.ics': [[], ['alarm'], ['cancelled'], ['alarm', 'cancelled']],
};

function queryFormArbitrary(forms: string[][], v: DemoValues): fc.Arbitrary<string> {
  const valid = validQueryValues(v);
  // Each form's arbitrary made once, not at every draw (a constantFrom indexes its values when it is made).
  const byForm = new Map(
    forms.map((form) => [
      form,
      fc.tuple(
        ...form.map((entry) => {
          // `param:values`: the parameter `param` with the valid values of another name.
          const [name, values = name] = entry.split(':');
          return fc.constantFrom(...valid[values]).map((text) => `${name}=${text}`);
        }),
      ),
    ]),
  );
  return fc
    .constantFrom(...forms)
    .chain((form) => byForm.get(form)!)
    .map((pairs) => pairs.join('&'));
}

function declaredQueryArbitrary(declared: DeclaredQuery, v: DemoValues): fc.Arbitrary<string> {
  const valid = validQueryValues(v);
  const context = bodyContext(v, new Set());
  const pairs = declared.names.map((name) => {
    const schema = declared.schemas?.[name];
    const known = valid[name]?.length ? fc.constantFrom(...valid[name]) : fc.constantFrom(...allValid(v));
    const value = schema
      ? fc.oneof(known, schemaValue(schema, name, context).map((drawn) => encode(typeof drawn === 'string' ? drawn : JSON.stringify(drawn))))
      : known;
    return fc.option(value.map((text): [string, string, string] => [name, text, 'k=v']), { freq: 3, nil: null });
  });
  return joinPairs(fc.tuple(...pairs).map((list) => list.filter((pair) => pair !== null)));
}

/**
 * The operation of the API document (by its method and OpenAPI path) that a route of the router serves (`:id|:cityId`
 * matches any `{name}`; a HEAD route is its GET's, which the document lists alone).
 */
function operationFor<T extends { method: string; path: string }>(route: Route, operations: readonly T[]): T | undefined {
  const segments = route.url.split('/');
  const method = route.method === 'HEAD' ? 'GET' : route.method;
  return operations.find((operation) => {
    const parts = operation.path.split('/');
    return (
      operation.method === method &&
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith('{') ? segments[i].startsWith(':') : part === segments[i]))
    );
  });
}

/** The query parameters the API document declares for a route of the router. */
function declaredQuery(route: Route, v: DemoValues): DeclaredQuery | undefined {
  return operationFor(route, v.declaredQueries);
}

/**
 * What a schema body draws from: for a uuid field, the records closest to those the path names (the waste types of
 * the place's city rather than of its group, of its group rather than of another), when the data says.
 */
function bodyContext(v: DemoValues, near: ReadonlySet<string>): BodyContext {
  const tables = Object.keys(v.idsByTable);
  const anyIds = Object.values(v.idsByTable).flat();
  return {
    idsFor(field) {
      const table = tableFor(field, tables);
      const ids = table ? v.idsByTable[table] : [];
      if (!near.size || !v.ancestors) return ids;
      const shared = (id: string) => [id, ...(v.ancestors!.get(id) ?? [])].filter((owner) => owner !== null && near.has(owner)).length;
      const best = Math.max(0, ...ids.map(shared));
      return best > 0 ? ids.filter((id) => shared(id) === best) : ids;
    },
    anyIds: anyIds.length ? anyIds : ['00000000-0000-4000-8000-000000000000'],
    hostile: fieldValue(v),
    now: v.now ?? new Date(),
  };
}

const HEADER_VALUES: Record<string, string[]> = {
  'accept-encoding': ['gzip', 'br', 'gzip, deflate, br', 'br;q=0', 'gzip;q=abc', 'br;q=1e400', '*', 'identity;q=0', ',,,;', 'x'.repeat(2000)],
  'if-none-match': ['*', '"abc"', 'W/"abc"', '""', '"', 'W/', '"a", "b", *', 'garbage', 'x'.repeat(4000), '"\u00e9"'],
  range: [
    'bytes=0-10',
    'bytes=-5',
    'bytes=5-',
    'bytes=0-0,2-3',
    'bytes=10-5',
    'bytes=999999999999999999999-',
    'bytes=-999999999999999999999',
    'bytes=--1',
    'bytes=abc',
    'bytes=',
    'items=0-1',
    'bytes=1e3-2e3',
    'bytes=0-10,' + '1-2,'.repeat(500),
  ],
  'if-range': ['"abc"', 'W/"x"', 'Tue, 01 Jan 2030 00:00:00 GMT', 'garbage'],
  'content-type': [
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=UTF-8',
    'application/json;charset=latin1',
    'application/json; charset=utf-16',
    'Application/JSON',
    'application/json;',
    'application/json; boundary=x',
    'application/vnd.api+json',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    '',
    ';;;',
    'garbage',
    '*/*',
  ],
  origin: ['https://evil.example', 'null', 'http://localhost:3000', 'garbage', 'https://dechets.brest-metropole.example'],
  accept: ['application/json', 'text/html', 'application/xml', '*/*', 'text/calendar', 'image/*', 'garbage;q=x'],
  'accept-language': ['fr-FR', 'en', '*', 'xx;q=abc'],
  authorization: ['Bearer abc', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'garbage'],
  'access-control-request-method': ['GET', 'POST', 'DELETE', 'garbage'],
  'access-control-request-headers': ['content-type', 'x-evil', ''],
  'x-forwarded-for': ['1.2.3.4', 'garbage', '::1, 10.0.0.1'],
  'cache-control': ['no-cache', 'max-age=abc'],
  'if-modified-since': ['garbage', 'Tue, 01 Jan 2030 00:00:00 GMT'],
  'if-match': ['*', '"abc"', 'W/"abc"', '""', 'garbage', '"a", "b"', 'x'.repeat(2000)],
};

/** None, or a few headers with typical, odd or random values. */
function headersArbitrary(v: DemoValues): fc.Arbitrary<Record<string, string>> {
  const values: Record<string, string[]> = { ...HEADER_VALUES, authorization: [...HEADER_VALUES.authorization, ...v.authorizations] };
  // Made once per header name, not at every draw: a grapheme string's arbitrary builds its tables when it is made.
  const anyText = fc.string({ unit: 'grapheme-ascii', maxLength: 30 });
  const byName = new Map(
    Object.keys(values).map((name) => [
      name,
      fc.tuple(
        fc.constant(name),
        fc.oneof({ weight: name === 'authorization' ? 12 : 4, arbitrary: fc.constantFrom(...values[name]) }, { weight: 1, arbitrary: anyText }),
      ),
    ]),
  );
  const header = fc.constantFrom(...Object.keys(values)).chain((name) => byName.get(name)!);
  // A valid console token half of the time, so that the console's routes are fuzzed past their 401.
  const authorization = v.authorizations.length
    ? fc.option(fc.constantFrom(...v.authorizations), { freq: v.authorizationFreq ?? 2, nil: undefined })
    : fc.constant(undefined);
  return fc
    .tuple(authorization, fc.array(header, { maxLength: 4 }))
    .map(([auth, pairs]) => ({ ...(auth ? { authorization: auth } : {}), ...Object.fromEntries(pairs) }));
}

/**
 * A JSON value of the kind a confused or hostile client sends in a field. Made once per set of demo values: its binary
 * string's arbitrary indexes every code point when it is made (some 60 ms).
 */
const fieldValues = new WeakMap<DemoValues, fc.Arbitrary<unknown>>();
function fieldValue(v: DemoValues): fc.Arbitrary<unknown> {
  let made = fieldValues.get(v);
  if (!made) fieldValues.set(v, (made = makeFieldValue(v)));
  return made;
}

function makeFieldValue(v: DemoValues): fc.Arbitrary<unknown> {
  const all = allValid(v);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...all) },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_VALUES) },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, 50, 100, 100.5, -1, 2 ** 31, 2 ** 63, 1e308, -1e308)) },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2], { a: { b: { c: 1 } } }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

function bodyArbitrary(v: DemoValues): fc.Arbitrary<string | null> {
  const record = fc.record(
    {
      deviceId: fc.oneof(fc.constantFrom(...v.deviceIds), fieldValue(v)),
      challengeId: fc.oneof(fc.constantFrom(...v.challengeIds), fieldValue(v)),
      score: fc.oneof(fc.double({ min: -10, max: 200 }), fieldValue(v)),
      cityId: fc.oneof(fc.constantFrom(...v.cityIds), fieldValue(v)),
      cityGroupId: fc.oneof(fc.constantFrom(...v.cityGroupIds), fieldValue(v)),
      placeId: fc.oneof(fc.constantFrom(...v.placeIds), fieldValue(v)),
      content: fc.oneof(fc.constantFrom('Quand passe le camion jaune ?', 'Où jeter une pile ?', '   '), fieldValue(v)),
      status: fc.oneof(fc.constantFrom('OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED'), fieldValue(v)),
      assignedTo: fc.oneof(fc.constantFrom('agent-1', null), fieldValue(v)),
      subject: fc.oneof(fc.constant('Bac cassé'), fieldValue(v)),
      description: fc.oneof(fc.constant('Le couvercle du bac jaune est cassé.'), fieldValue(v)),
      extra: fieldValue(v),
    },
    { requiredKeys: [] },
  );
  const id = v.challengeIds[0] ?? '00000000-0000-4000-8000-000000000000';
  const rawTexts = [
    `{"deviceId":"fuzz-device-0001","challengeId":"${id}","score":1e400}`,
    `{"deviceId":"fuzz-device-0001","challengeId":"${id}","score":-1e400}`,
    `{"deviceId":"fuzz\\u0000device","challengeId":"${id}","score":10}`,
    `{"deviceId":"fuzz-device-0001","challengeId":"${id}\\u0000","score":10}`,
    '{"content":"a\\u0000b"}',
    '{"content":"\\ud800"}',
    '{"cityId":"\\u0000","placeId":"\\u0000"}',
    '{"score":123456789012345678901234567890}',
    '{"__proto__":{"polluted":true},"deviceId":"x"}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '[]',
    '[{"deviceId":"fuzz-device-0001"}]',
    '"a string"',
    '42',
    'null',
    'true',
    '',
    ' ',
    '{',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    'NaN',
    'not json at all',
    '\u0000',
    '\ufeff{}',
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":'.repeat(2000) + '1' + '}'.repeat(2000),
    `{"content":"${'a'.repeat(100 * 1024)}"}`,
    `{"deviceId":"${'x'.repeat(100 * 1024 - 10)}"}`,
    'deviceId=fuzz-device-0001&score=1',
  ];
  // Every field a route may want, valid, with one of them (sometimes) replaced by a bad value: requests
  // that pass validation but one check, and requests that go all the way.
  const valid = fc.record({
    deviceId: fc.constantFrom(...v.deviceIds),
    challengeId: fc.constantFrom(...v.challengeIds),
    score: fc.double({ min: 0, max: 100, noNaN: true }),
    cityId: fc.constantFrom(...v.cityIds),
    placeId: fc.constantFrom(...v.placeIds),
    content: fc.constantFrom('Quand passe le camion jaune ?', 'Où jeter une pile ?', 'Je voudrais parler à un agent.'),
    status: fc.constantFrom('OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED'),
    assignedTo: fc.constantFrom('fuzz-agent', null),
    subject: fc.constant('Bac cassé'),
    description: fc.constant('Le couvercle du bac jaune est cassé.'),
  });
  const almostValid = fc
    .tuple(valid, fc.option(fc.tuple(fc.constantFrom('deviceId', 'challengeId', 'score', 'cityId', 'placeId', 'content', 'status', 'assignedTo', 'subject', 'description'), fieldValue(v))))
    .map(([body, change]) => JSON.stringify(change ? { ...body, [change[0]]: change[1] } : body));
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: almostValid },
    { weight: 3, arbitrary: record.map((r) => JSON.stringify(r)) },
    { weight: 3, arbitrary: fc.constantFrom(...rawTexts) },
    { weight: 1, arbitrary: fc.jsonValue().map((j) => JSON.stringify(j)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
  );
}

const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/** The records a path names (`/admin/places/<id>/exceptions`) and their owners, when the data says. */
function ownersOfPath(path: string, v: DemoValues): string[] {
  if (!v.ancestors) return [];
  return path.split('/').flatMap((segment) => {
    const owners = v.ancestors!.get(segment);
    return owners ? [segment, ...owners.filter((owner): owner is string => owner !== null)] : [];
  });
}

/** The headers with `Content-Type: application/json` when there is a body and they name no type. */
function jsonTyped(headers: Record<string, string>, body: string | null): Record<string, string> {
  return body === null || 'content-type' in headers ? headers : { 'content-type': 'application/json', ...headers };
}

/**
 * What a well-formed admin change or deletion sends as `If-Match` (428 without one): mostly the record's ETag, read
 * just before (`etag`), or `*`, so that the writes are really let through; sometimes a stale tag (412, or the 404 of
 * another group's record), and sometimes none, the 428 that the admin test expects then.
 */
const IF_MATCH_CHOICES = fc.oneof(
  { weight: 3, arbitrary: fc.constant<string | null>('etag') },
  { weight: 2, arbitrary: fc.constant<string | null>('*') },
  { weight: 1, arbitrary: fc.constant<string | null>('"0-stale"') },
  { weight: 1, arbitrary: fc.constant<string | null>(null) },
);

/** Whether a route is one of the admin changes and deletions, which all need `If-Match`. */
export const isConditionalWrite = (method: string, url: string) => (method === 'PATCH' || method === 'DELETE') && /^\/admin\//.test(url);

/** The headers with the `If-Match` that `choice` says (IF_MATCH_CHOICES), instead of any drawn; `etag` and null leave none yet. */
function withIfMatchChoice(headers: Record<string, string>, choice: string | null | undefined): Record<string, string> {
  if (choice === undefined) return headers;
  const { 'if-match': _drawn, ...others } = headers;
  return choice === null || choice === 'etag' ? others : { ...others, 'if-match': choice };
}

/**
 * The request with its `If-Match` set to the record's current ETag when it asks for it (`readEtag`), as
 * `authorization` (an agent who may read it) reads the record at the same path now; `*` when it has none (a record
 * the run deleted), whose write then answers as at a missing record.
 */
export async function withRecordEtag(app: FastifyInstance, request: FuzzRequest, authorization: string): Promise<FuzzRequest> {
  if (!request.readEtag) return request;
  const read = await app.inject({ method: 'GET', url: request.path, headers: { authorization } });
  const etag = read.statusCode < 300 && typeof read.headers.etag === 'string' ? read.headers.etag : '*';
  return { ...request, headers: { ...request.headers, 'if-match': etag } };
}

export interface FuzzOptions {
  /** How many hostile requests for one well-formed one (default 3). */
  hostilePerWellFormed?: number;
}

/**
 * A random request aimed at one of the routes (sometimes with the wrong method). A route whose operation declares a
 * JSON body gets bodies drawn from that schema (schema-bodies.ts) most of the time, the fixed field list otherwise.
 */
export function fuzzRequest(routes: Route[], v: DemoValues, options: FuzzOptions = {}): fc.Arbitrary<FuzzRequest> {
  // The OPTIONS routes are the CORS preflights of /public: aim OPTIONS at the other routes' paths instead.
  const targets = routes.filter((r) => r.method !== 'OPTIONS' && r.url !== '*');
  const preflightable = routes.some((r) => r.method === 'OPTIONS');
  const body = bodyArbitrary(v);
  const anyQuery = queryArbitrary(v);
  const headers = headersArbitrary(v);
  // Each route's request arbitrary is built once, not at every draw.
  const byRoute = targets.map((route) => {
    const declared = declaredQuery(route, v);
    // By the route's path with one name per parameter (the router writes `:id|:deviceId` where routes differ).
    const forms = QUERY_FORMS[route.url.replace(/\|:[^/]+/g, '')];
    const ownQuery = forms ? queryFormArbitrary(forms, v) : declared?.names.length ? declaredQueryArbitrary(declared, v) : fc.constant('');
    const bodyless = route.method === 'GET' || route.method === 'HEAD';
    const schema = bodyless ? undefined : operationFor(route, v.bodySchemas)?.schema;
    // One schema body arbitrary per set of records that a path names, made on first use.
    const schemaBodies = new Map<string, fc.Arbitrary<string | null>>();
    const bodyFor = (near: string[]): fc.Arbitrary<string | null> => {
      if (!schema) return body;
      const key = near.join(',');
      if (!schemaBodies.has(key)) {
        schemaBodies.set(key, fc.oneof({ weight: 6, arbitrary: schemaBody(schema, bodyContext(v, new Set(near))) }, { weight: 1, arbitrary: body }));
      }
      return schemaBodies.get(key)!;
    };
    const hostile = fc
      .record({
      route: fc.constant(`${route.method} ${route.url}`),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(route.method) },
        { weight: preflightable ? 1 : 0, arbitrary: fc.constant('OPTIONS') },
        { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
      ),
      path: pathArbitrary(route, v),
      // Sometimes the route's own parameters with valid values, so that requests also go past validation.
      query: fc.oneof(
        { weight: 2, arbitrary: fc.constant('') },
        { weight: 2, arbitrary: anyQuery },
        { weight: declared?.names.length ? 1 : 0, arbitrary: ownQuery },
      ),
      headers,
      body: bodyless ? fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: body }) : bodyFor([]),
      remoteAddress: fc.ipV4(),
      wellFormed: fc.constant(false),
      jsonType: fc.boolean(),
    })
      // Half of the bodies say they are JSON, as a client's would; the others are left to what the headers drew.
      .map(({ jsonType, ...request }): FuzzRequest => (jsonType ? { ...request, headers: jsonTyped(request.headers, request.body) } : request));
    // A quarter of the requests name records that exist, with the route's own method and parameters: every read is
    // reached often enough to be seen answering, whatever the seed (the test prints the fewest 2xx of a read). Their
    // bodies name records of the path's group.
    const admitted = v.admittedBy?.get(`${route.method} ${route.url}`) ?? [];
    const admittedAuthorization = admitted.length ? fc.option(fc.constantFrom(...admitted), { nil: undefined }) : fc.constant(undefined);
    // An admin change or deletion carries If-Match most of the time (IF_MATCH_CHOICES).
    const ifMatch = isConditionalWrite(route.method, route.url) ? IF_MATCH_CHOICES : fc.constant(undefined);
    const wellFormed = fc
      .tuple(validPathArbitrary(route, v), ownQuery, headers, fc.ipV4(), admittedAuthorization, ifMatch)
      .map(([path, query, drawn, remoteAddress, authorization, choice]) => {
        const chosen = withIfMatchChoice(authorization ? { ...drawn, authorization } : drawn, choice);
        return [path, query, chosen, remoteAddress, choice === 'etag'] as const;
      })
      .chain(([path, query, headers, remoteAddress, readEtag]) =>
        (bodyless ? fc.constant(null) : bodyFor(ownersOfPath(path, v))).map(
          (requestBody): FuzzRequest => ({
            route: `${route.method} ${route.url}`,
            method: route.method,
            path,
            query,
            headers: jsonTyped(headers, requestBody),
            body: requestBody,
            remoteAddress,
            wellFormed: true,
            ...(readEtag ? { readEtag } : {}),
          }),
        ),
      );
    return fc.oneof({ weight: options.hostilePerWellFormed ?? 3, arbitrary: hostile }, { weight: 1, arbitrary: wellFormed });
  });
  // Every route as often as every other (fc.nat would favour the first and last).
  return fc.oneof(...byRoute);
}

export function urlOf(request: FuzzRequest): string {
  return request.query ? `${request.path}?${request.query}` : request.path;
}

export function toInject(request: FuzzRequest): InjectOptions {
  return {
    method: request.method as InjectOptions['method'],
    url: urlOf(request),
    headers: request.headers,
    remoteAddress: request.remoteAddress,
    ...(request.body !== null ? { payload: request.body } : {}),
  };
}

/** A stack frame (`at fn (/path/file.ts:12:3)`) or a path into the code: internals a response must never show. */
// A frame is `at` and a place ending in :line:column; prose that folds before the word « at » (the API's YAML) is not.
const STACK_TRACE = /(?:\n|\\n)\s*at [^\n]*:\d+:\d+|\bat [\w.$<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s()'"]*:\d+:\d+|node_modules\/|\/src\/[a-z-]+\/[a-z-]+\.ts/;

/** Pieces of Fastify's, Ajv's and Node's own (English) error messages. */
const ENGLISH = /\bmust\b|\bshould\b|body\/|querystring\/|params\/|headers\/|\bRoute \w+:|not found|Unsupported|Unexpected|is required|Invalid|FST_|Error:/;

/** The API's own paths: their errors are JSON whatever the client accepts. */
const API_PATH = /^\/(public|chat|docs|health|ready|openapi\.json)(\/|$)/;

/**
 * Whether an HTML 404 is the web app's not-found page, as it should be for a browser (an Accept naming text/html)
 * asking for a path that is neither the API's nor one of the app's.
 */
function webAppNotFound(request: FuzzRequest, body: string): boolean {
  return !API_PATH.test(request.path) && /text\/html/.test(request.headers.accept ?? '') && (request.method === 'HEAD' || body.includes('<div id="app">'));
}

/** The statuses whose code the contract fixes (Part three, errors). */
const EXACT_CODES: Record<number, string> = { 412: 'preconditionFailed', 428: 'preconditionRequired', 429: 'rateLimited' };

/** What is wrong with an answer, or null when it keeps the contract. */
export function problemWith(request: FuzzRequest, response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  const url = urlOf(request);
  const where = `${status} for ${request.method} ${url.length > 160 ? `${url.slice(0, 160)}…` : url}`;
  const type = String(response.headers['content-type'] ?? '');
  if (status >= 500) return `${where}: a server error: ${response.body.slice(0, 300)}`;
  if (!/^(image|video|audio|font)\//.test(type) && STACK_TRACE.test(response.body)) {
    return `${where}: internals in the body: ${response.body.slice(0, 300)}`;
  }
  if (status < 400) return null;
  if (/^\/open311([/?#]|$)/.test(request.path)) {
    const problem =
      request.method === 'HEAD'
        ? /^(application\/json|text\/xml)/.test(type) ? null : `${where}: content-type ${type || '(none)'} instead of JSON or XML`
        : open311Problem(where, status, type, response.body);
    // A path whose `..` may climb out of /open311 (`/open311/%2e%2e`) is answered where it lands: by Open311 or not.
    if (problem === null || !/\/(\.|%2e){2}(\/|$)/i.test(request.path)) return problem;
  }
  if (status === 404 && /^text\/html/.test(type)) return webAppNotFound(request, response.body) ? null : `${where}: an HTML 404 where JSON was due`;
  if (!/^application\/json/.test(type)) return `${where}: content-type ${type || '(none)'} instead of JSON`;
  if (request.method === 'HEAD') return null;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `${where}: not JSON: ${response.body.slice(0, 300)}`;
  }
  const { statusCode, message, error, code, field, ...rest } = (body ?? {}) as Record<string, unknown>;
  if (Object.keys(rest).length || statusCode !== status || error !== STATUS_NAMES[status]) {
    return `${where}: not the error shape: ${response.body.slice(0, 300)}`;
  }
  // The catalogue's stable camelCase name of the error kind, exact where the contract names it; the faulty field or null.
  if (typeof code !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(code)) return `${where}: not a catalogue code: ${response.body.slice(0, 300)}`;
  if (EXACT_CODES[status] !== undefined && code !== EXACT_CODES[status]) return `${where}: the code of a ${status} is ${EXACT_CODES[status]}: ${response.body.slice(0, 300)}`;
  if (field !== null && (typeof field !== 'string' || field.trim() === '')) return `${where}: field is neither a name nor null: ${response.body.slice(0, 300)}`;
  if (typeof message !== 'string' || message.trim() === '' || ENGLISH.test(message)) {
    return `${where}: not a French message: ${JSON.stringify(message)}`;
  }
  return null;
}

const xmlParser = new XMLParser({ isArray: (name) => name === 'error', parseTagValue: false, ignoreDeclaration: true });

/**
 * Open311's failures are GeoReport v2's, never the API's error body (docs/api.md, Open311): `[{code, description}]` in
 * JSON, `<errors><error><code>…` in XML, the status as code and a French description.
 */
function open311Problem(where: string, status: number, type: string, body: string): string | null {
  let errors: unknown;
  if (/^text\/xml/.test(type)) {
    if (XMLValidator.validate(body) !== true) return `${where}: not valid XML: ${body.slice(0, 300)}`;
    errors = (xmlParser.parse(body) as { errors?: { error?: unknown } }).errors?.error;
  } else if (/^application\/json/.test(type)) {
    try {
      errors = JSON.parse(body);
    } catch {
      return `${where}: not JSON: ${body.slice(0, 300)}`;
    }
  } else return `${where}: content-type ${type || '(none)'} instead of JSON or XML`;
  if (!Array.isArray(errors) || errors.length !== 1) return `${where}: not Open311's errors: ${body.slice(0, 300)}`;
  const { code, description, ...rest } = errors[0] as Record<string, unknown>;
  if (Object.keys(rest).length || String(code) !== String(status)) return `${where}: not Open311's error shape: ${body.slice(0, 300)}`;
  if (typeof description !== 'string' || description.trim() === '' || ENGLISH.test(description)) return `${where}: not a French description: ${JSON.stringify(description)}`;
  return null;
}

/**
 * Every table's rows as sorted JSON lines, except the tables named in `skip`, to compare before and after.
 * Read from the catalogue, so that tables added later are covered.
 */
export async function dumpTables(db: Kysely<DB>, skip: readonly string[]): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
  `.execute(db);
  const dump: Record<string, string[]> = {};
  for (const { name } of tables) {
    if (skip.includes(name)) continue;
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db);
    dump[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return dump;
}

/**
 * The read routes that never answered 2xx to up to `tries` well-formed requests drawn for each (with `authorization`
 * when given), failing at once on a 5xx: a seed-independent check that every read goes past validation, which a
 * random run may miss (a route whose parameters exclude each other, records a run deleted before the read came).
 */
export async function silentReads(
  app: FastifyInstance,
  routes: Route[],
  v: DemoValues,
  options: { seed: number; authorization?: string; tries?: number },
): Promise<string[]> {
  const silent: string[] = [];
  for (const route of routes) {
    const drawn = fc.sample(fuzzRequest([route], v, { hostilePerWellFormed: 0 }), { numRuns: options.tries ?? 40, seed: options.seed });
    let answered = false;
    for (const request of drawn) {
      assert.ok(request.wellFormed);
      const headers = options.authorization ? { ...request.headers, authorization: options.authorization } : request.headers;
      const response = await app.inject(toInject({ ...request, headers }));
      assert.ok(response.statusCode < 500, `${response.statusCode} for ${urlOf(request)}: ${response.body.slice(0, 200)}`);
      if (response.statusCode < 300) {
        answered = true;
        break;
      }
    }
    if (!answered) silent.push(`${route.method} ${route.url}`);
  }
  return silent;
}
