import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database.ts';
import { hashKey } from '../../src/open311/keys.ts';
import type { DeclaredQuery, DemoValues } from './requests.ts';
import { tableIds } from './records.ts';
import { bodySchemas, type JsonSchema } from './schema-bodies.ts';

/** What the fuzz tests read from the API document and the demo data before they draw requests. */

type Operation = { parameters?: Array<{ name: string; in: string; schema?: JsonSchema }> };

/** Every operation of the API document, with its method and path (`/public/cms/sites/{slug}/pages`). */
function operations(app: FastifyInstance): Array<{ method: string; path: string; operation: Operation }> {
  const spec = app.swagger() as { paths?: Record<string, Record<string, Operation>> };
  return Object.entries(spec.paths ?? {}).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** The integer and number parameters (query and path) of every route, as the API document describes them. */
function numericParameters(app: FastifyInstance): string[] {
  const names = new Set<string>();
  for (const { operation } of operations(app)) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.schema?.type === 'integer' || parameter.schema?.type === 'number') names.add(parameter.name);
    }
  }
  return [...names].sort();
}

/** The query parameters of each operation, as the API document declares them. */
function declaredQueries(app: FastifyInstance): DeclaredQuery[] {
  return operations(app)
    .map(({ method, path, operation }) => {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      return { method, path, names: query.map((p) => p.name), schemas: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])) };
    })
    .filter((query) => query.names.length > 0);
}

/**
 * Ids, slugs and names that exist in the demo data and what the API document declares, so that random requests
 * reach the database and beyond. No authorizations: each test adds the tokens it fuzzes with.
 */
export async function demoValues(app: FastifyInstance, database: Database, now: Date): Promise<DemoValues> {
  const db = database.db;
  const idsByTable = await tableIds(db);
  const cities = await db.selectFrom('city').select(['id', 'status']).execute();
  const sites = await db.selectFrom('site').select('slug').execute();
  const places = await db.selectFrom('collection_place').select(['id', 'city_id']).execute();
  const menus = await db.selectFrom('menu').innerJoin('site', 'site.id', 'menu.site_id').select(['menu.id', 'menu.location', 'site.slug']).execute();
  const values: DemoValues = {
    cityIds: cities.map((c) => c.id),
    inactiveCityIds: cities.filter((c) => c.status !== 'ACTIF').map((c) => c.id),
    cityGroupIds: idsByTable.city_group ?? [],
    placeIds: idsByTable.collection_place ?? [],
    challengeIds: idsByTable.challenge ?? [],
    blogPostIds: idsByTable.blog_post ?? [],
    pageIds: idsByTable.page ?? [],
    menuIds: idsByTable.menu ?? [],
    mediaIds: idsByTable.media ?? [],
    wasteTypeIds: idsByTable.waste_type ?? [],
    slugs: sites.map((s) => s.slug),
    menuLocations: [...new Set(menus.map((m) => m.location))].filter((l): l is string => typeof l === 'string'),
    deviceIds: ['fuzz-device-0001', 'demo_device_42'],
    conversationIds: [],
    coherentParams: [],
    authorizations: [],
    numericParams: numericParameters(app),
    declaredQueries: declaredQueries(app),
    idsByTable,
    bodySchemas: bodySchemas(app.swagger()),
    now,
  };
  for (const place of places) values.coherentParams.push({ cityId: place.city_id, placeId: place.id });
  for (const menu of menus) values.coherentParams.push({ slug: menu.slug, menuId: menu.id, location: menu.location ?? '' });
  return values;
}

/**
 * The demo holds no residents' requests (they are not in the import bundle): one filed through the API by `deviceId`
 * in the first ACTIF city of each group, each with a photo, so that the request routes have records in every group.
 */
export async function addResidentRequests(app: FastifyInstance, database: Database, deviceId: string, now: Date): Promise<void> {
  const db = database.db;
  const cities = await db
    .selectFrom('city')
    .select(['id', 'city_group_id'])
    .where('status', '=', 'ACTIF')
    .where('city_group_id', 'is not', null)
    .orderBy('id')
    .execute();
  const firstOfEach = [...new Map(cities.map((c) => [c.city_group_id, c] as const)).values()].reverse();
  for (const city of firstOfEach) {
    const filed = await app.inject({
      method: 'POST',
      url: '/public/requests',
      payload: { deviceId, cityId: city.id, typeCode: 'autre', description: 'Le bac jaune est resté sur le trottoir.' },
    });
    if (filed.statusCode !== 201) throw new Error(`could not file a request to fuzz: ${filed.statusCode} ${filed.body}`);
    await db
      .insertInto('request_photo')
      .values({ id: randomUUID(), request_id: filed.json().id, content_type: 'image/jpeg', width: 1, height: 1, bytes: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), created_at: now })
      .execute();
  }
}

/** An Open311 key of each city group (stored as the admin route would: its SHA-256), so that /admin/open311-keys/:id has records to read. */
export async function addOpen311Keys(database: Database, now: Date): Promise<void> {
  const groups = await database.db.selectFrom('city_group').select('id').orderBy('id').execute();
  for (const [i, group] of groups.entries()) {
    await database.db
      .insertInto('open311_key')
      .values({ id: randomUUID(), city_group_id: group.id, name: `Partenaire ${i + 1}`, key_hash: hashKey(randomUUID()), created_at: now, updated_at: now })
      .execute();
  }
}
