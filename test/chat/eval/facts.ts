import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../../src/app.ts';
import { importBundleFile } from '../../../src/bundle/import.ts';
import { openDatabase } from '../../../src/db/database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { DEMO_BUNDLE_PATH } from '../../../src/demo/load.ts';
import { testConfig } from '../../helpers/app.ts';

/**
 * `npx tsx test/chat/eval/facts.ts [out.json]`: the demo data's facts as the public API gives them at the
 * evaluation's fixed clock, written out to check the second evaluation set's expectations against
 * (questions-2.json was written from this dump, never from the assistant's answers).
 * Extra args after the output file: `lookup:City:address` and `guide:City:query` to probe more.
 */
const NOW = '2026-11-23T08:00:00.000Z';
const out = process.argv[2] ?? path.join(os.tmpdir(), 'collecte-eval-facts.json');
const probes = process.argv.slice(3);
const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-facts-'));
const database = await openDatabase({ databaseUrl: null, dataDir: null });
await migrateToLatest(database.db);
await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date(NOW) });
const app = await buildApp({ config: testConfig(), database, clock: () => new Date(NOW) });
await app.ready();
const get = async (url: string) => {
  const r = await app.inject({ method: 'GET', url });
  if (r.statusCode !== 200) return { status: r.statusCode, body: r.body.slice(0, 300) };
  return r.headers['content-type']?.includes('json') ? r.json() : r.body;
};
const cities = (await get('/public/cities')) as any[];
const facts: any = { now: NOW, groups: await get('/public/city-groups'), cities: [], blog: await get('/public/blog-posts'), probes: {} };
for (const c of cities) {
  const city: any = {
    name: c.name, id: c.id, group: c.cityGroup?.name,
    guidance: { outOfTheBins: c.outOfTheBins, presentationOfBins: c.presentationOfBins, returnOfBins: c.returnOfBins, respectOfCalendar: c.respectOfCalendar, holidays: c.holidays },
    wasteTypes: c.wasteTypes.map((w: any) => ({ id: w.id, name: w.name, details: (w.wasteTypeDetails ?? w.details ?? []).map((d: any) => d.name ?? d.material) })),
    places: [],
    points: await get(`/public/cities/${c.id}/recycling-points`),
  };
  for (const p of c.wasteCollectionPlaces) {
    const coll = (await get(`/public/cities/${c.id}/places/${p.id}/collections?from=2026-11-23&to=2027-01-15`)) as any[];
    const next: Record<string, string[]> = {};
    for (const o of coll) (next[o.wasteTypeName] ??= []).length < 4 && next[o.wasteTypeName].push(o.date + (o.holiday ? ` (${o.holiday})` : ''));
    city.places.push({
      name: p.name, id: p.id,
      days: (p.wasteCollectionDays ?? p.collectionDays ?? []).map((d: any) => ({ ...d, id: undefined })),
      exceptions: (p.wasteCollectionExceptions ?? p.exceptions ?? []).map((e: any) => ({ ...e, id: undefined })),
      attachedLocations: (p.attachedLocations ?? []).map((l: any) => l.name + ' / ' + (l.address ?? '')),
      next,
    });
  }
  facts.cities.push(city);
}
facts.sites = await get('/public/cms/sites');
for (const s of Array.isArray(facts.sites) ? facts.sites : (facts.sites.data ?? facts.sites.items ?? [])) s.pagesList = await get(`/public/cms/sites/${s.slug}/pages`);
for (const probe of probes) {
  const [kind, cityName, q] = probe.split(':');
  const c = cities.find((x) => x.name === cityName);
  facts.probes[probe] = kind === 'lookup'
    ? await get(`/public/places/lookup?cityId=${c.id}&address=${encodeURIComponent(q)}`)
    : await get(`/public/cities/${c.id}/sorting-guide?q=${encodeURIComponent(q)}`);
}
await fs.writeFile(out, JSON.stringify(facts, null, 1));
console.log(`facts written to ${out}`);
await app.close();
await database.close();
await fs.rm(mediaDir, { recursive: true, force: true });
