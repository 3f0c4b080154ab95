/**
 * The national-scale data set of `npm run bench -- --scale N`: N real French communes (type "commune-actuelle"
 * of @etalab/decoupage-administratif, in code order, those of the demo's own intercommunalités left out),
 * grouped into their real EPCI (name, SIREN, type label), each with the nested data of a typical demo commune:
 * a Communauté de communes commune of demo/bundle.json with two collection places (waste types and details,
 * places with days, exceptions and locations, recycling points, quiz questions, challenges with series and
 * badges), whose places get 50 street rules in all (believable French names drawn from lists of types and names; five
 * streets shared by the first two places, by side or by number range) and an area each (wedges of a disc around
 * the commune's centre, laid on a grid over France: no two places overlap). Every id of the clone is remapped to a UUID v5 of the commune code and the old id, so references
 * stay consistent and a rebuild gives the same ids (a re-import changes nothing).
 *
 * The bundle is written in chunks of CHUNK_CITIES cities (never one giant JSON: V8 strings top out near
 * 512 MB), each with the groups its cities reference, for the import command to load one by one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { addProbes, type LookupProbes } from './lookup.ts';

/** Streets of each generated city kept as address probes (the shared ones first). */
const PROBE_STREETS_PER_CITY = 6;

/** Cities per bundle file: about 40 MB of JSON, imported in one transaction each. */
export const CHUNK_CITIES = 1000;

const SCALE_NAMESPACE = 'b7e0c5a2-6d1f-4f3a-9c8e-2a4b6d8f0e13';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EPCI_TYPES: Record<string, string> = {
  METRO: 'Métropole',
  MET69: 'Métropole',
  CU: 'Communauté urbaine',
  CA: "Communauté d'agglomération",
  CC: 'Communauté de communes',
};

interface EtalabCommune {
  code: string;
  nom: string;
  type: string;
  population?: number;
}
interface EtalabEpci {
  code: string;
  nom: string;
  type: string;
  membres: { code: string }[];
}

function uuidV5(name: string): string {
  const ns = Buffer.from(SCALE_NAMESPACE.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Every `id` value anywhere in a JSON tree. */
function collectIds(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) collectIds(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'id' && typeof value === 'string') into.add(value);
      else collectIds(value, into);
    }
  }
  return into;
}

/** A deep copy where every id of the template (and every reference to one) is replaced through `remap`. */
function remapTree(node: unknown, ids: Set<string>, remap: (id: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => remapTree(item, ids, remap));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = remapTree(value, ids, remap);
    return out;
  }
  if (typeof node === 'string' && ids.has(node)) return remap(node);
  return node;
}

/** The template: a CC commune of the demo with two collection places, the typical shape of a commune. */
function pickTemplate(demo: any): any {
  const ccGroups = new Set(demo.cityGroups.filter((g: any) => g.type === 'Communauté de communes').map((g: any) => g.id));
  const template = demo.cities.find(
    (c: any) => c.status === 'ACTIF' && ccGroups.has(c.cityGroupId) && c.wasteCollectionPlaces.length === 2 && c.challenges.length > 0,
  );
  if (!template) throw new Error('demo/bundle.json has no CC commune with two collection places');
  const ids = collectIds(template, new Set());
  // The clone must not point outside itself (media, other cities): every UUID it holds is one of its ids.
  const stray: string[] = [];
  JSON.stringify(template, (key, value) => {
    if (typeof value === 'string' && UUID.test(value) && !ids.has(value) && key !== 'cityGroupId') stray.push(`${key}=${value}`);
    return value;
  });
  if (stray.length) throw new Error(`the template city refers outside itself: ${stray.join(', ')}`);
  return template;
}

/** Street rules per generated city, in all: 40 whole streets and 5 shared by two places (2 rules each). */
export const STREET_RULES_PER_CITY = 50;
const SHARED_STREETS = 5;

const STREET_TYPES = ['Rue', 'Rue', 'Rue', 'Avenue', 'Boulevard', 'Place', 'Impasse', 'Allée', 'Chemin', 'Route', 'Quai', 'Square', 'Cours', 'Chaussée'];
const STREET_NAMES = [
  'Jean Jaurès', 'Victor Hugo', 'de la République', 'Pasteur', 'du Général de Gaulle', 'de la Gare', 'des Écoles', "de l'Église",
  'Gambetta', 'Jules Ferry', 'Anatole France', 'du Moulin', 'des Lilas', 'Émile Zola', 'de la Mairie', 'du Château', 'des Tilleuls',
  'Voltaire', 'Jean Moulin', 'de la Liberté', 'du Stade', 'des Acacias', 'Carnot', 'Louis Pasteur', 'du 8 Mai 1945', 'Saint-Exupéry',
  'Albert Camus', 'de Verdun', 'des Peupliers', 'du Maréchal Foch', 'Paul Bert', 'Aristide Briand', 'de la Fontaine', 'des Vignes',
  'du Four', 'de la Croix', 'Pierre Curie', 'Marie Curie', 'Georges Clemenceau', 'de Bretagne', 'du Lavoir', 'des Prés', 'de la Poste',
  'Saint-Martin', 'Sainte-Anne', 'du Bourg', 'des Chênes', 'de la Forge', "de l'Abbaye", 'Jacques Prévert', 'Charles Péguy',
  'Léon Blum', 'Jean Monnet', 'Lamartine', 'Alsace-Lorraine', 'des Jardins', 'du Calvaire', 'de la Paix', 'des Rosiers', 'du Port',
];

/** A small deterministic generator (mulberry32) seeded from a string. */
export function seededRandom(seed: string): () => number {
  let a = createHash('sha1').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The street rules of one generated city's places, 50 in all: SHARED_STREETS streets split between the first two
 * places (odd/even sides, or numbers 1–49 and 50 on), the rest whole streets dealt to the places in turn. Distinct
 * (type, name) pairs from the lists above, chosen from the commune code, so no two places claim the same address.
 */
function generatedStreets(code: string, placeIds: string[]): Map<string, any[]> {
  const random = seededRandom(`streets:${code}`);
  const chosen = new Set<string>();
  while (chosen.size < STREET_RULES_PER_CITY) {
    chosen.add(`${STREET_TYPES[Math.floor(random() * STREET_TYPES.length)]} ${STREET_NAMES[Math.floor(random() * STREET_NAMES.length)]}`);
  }
  const streets = [...chosen];
  const rules = new Map<string, any[]>(placeIds.map((id) => [id, []]));
  let count = 0;
  const add = (placeId: string, street: string, fromNumber: number | null, toNumber: number | null, side: string) =>
    rules.get(placeId)!.push({ id: uuidV5(`city:${code}/street/${count++}`), street, fromNumber, toNumber, side });
  let next = 0;
  if (placeIds.length >= 2) {
    for (; next < SHARED_STREETS; next++) {
      const street = streets[next];
      if (next % 2 === 0) {
        add(placeIds[0], street, null, null, 'ODD');
        add(placeIds[1], street, null, null, 'EVEN');
      } else {
        add(placeIds[0], street, 1, 49, 'ALL');
        add(placeIds[1], street, 50, null, 'ALL');
      }
    }
  }
  for (let i = 0; count < STREET_RULES_PER_CITY; i++) add(placeIds[i % placeIds.length], streets[next++], null, null, 'ALL');
  return rules;
}

/** Commune centres on a grid over metropolitan France (the package has no coordinates): cells of about 4 × 6 km. */
const GRID = { cols: 220, lon0: -4.8, lat0: 42.3, lonStep: 13 / 220, latStep: 0.055, radius: 0.02 };

/**
 * Each place's area: a wedge of a disc around the commune's centre (one place: the whole disc), so that the places
 * of a city never overlap and the cities (one grid cell each) neither.
 */
function generatedAreas(index: number, placeCount: number): any[] {
  const lon = GRID.lon0 + (index % GRID.cols) * GRID.lonStep + GRID.lonStep / 2;
  const lat = GRID.lat0 + Math.floor(index / GRID.cols) * GRID.latStep + GRID.latStep / 2;
  const at = (angle: number) => [round6(lon + GRID.radius * 1.5 * Math.cos(angle)), round6(lat + GRID.radius * Math.sin(angle))];
  const steps = 8;
  return Array.from({ length: placeCount }, (_, j) => {
    const arc = Array.from({ length: steps + 1 }, (_, s) => at(((j + s / steps) * 2 * Math.PI) / placeCount));
    const ring = placeCount === 1 ? [...arc.slice(0, steps), arc[0]] : [[round6(lon), round6(lat)], ...arc, [round6(lon), round6(lat)]];
    return { type: 'Polygon', coordinates: [ring] };
  });
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export interface ScaleDataSet {
  files: string[];
  cities: number;
  groups: number;
  bytes: number;
  /** Every generated city, for the lookup cases' probes (bench/lookup.ts): its id, name and places. */
  probes: LookupProbes;
}

/** Writes the chunks of N cities under `outDir` and answers their paths, in import order. */
export function generateScaleBundles(options: { count: number; outDir: string; demoBundle: string }): ScaleDataSet {
  const require = createRequire(import.meta.url);
  const communes = require('@etalab/decoupage-administratif/data/communes.json') as EtalabCommune[];
  const epcis = require('@etalab/decoupage-administratif/data/epci.json') as EtalabEpci[];
  const demo = JSON.parse(fs.readFileSync(options.demoBundle, 'utf8'));
  const template = pickTemplate(demo);
  const templateIds = collectIds(template, new Set());
  const templateText = JSON.stringify(template);

  const demoSirens = new Set(demo.cityGroups.map((g: any) => g.siren));
  const epciOf = new Map<string, EtalabEpci>();
  for (const epci of epcis) for (const member of epci.membres) epciOf.set(member.code, epci);
  const chosen = communes
    .filter((c) => c.type === 'commune-actuelle' && !demoSirens.has(epciOf.get(c.code)?.code))
    .sort((a, b) => (a.code < b.code ? -1 : 1))
    .slice(0, options.count);

  // The template's group's holiday rules, those for every waste type (a waste type's id is its city's): the calendar at
  // scale is computed with rules, as the demo's is.
  const holidayRules = (demo.cityGroups.find((g: any) => g.id === template.cityGroupId)?.holidayRules ?? []).filter((r: any) => r.wasteTypeId === null);
  const groupOf = (epci: EtalabEpci) => ({
    id: uuidV5(`epci:${epci.code}`),
    holidayRules,
    name: epci.nom,
    type: EPCI_TYPES[epci.type] ?? epci.type,
    code: epci.code,
    siren: epci.code,
    chatEnabled: false,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  });

  fs.mkdirSync(options.outDir, { recursive: true });
  const files: string[] = [];
  const allGroups = new Set<string>();
  let bytes = 0;
  const probes: LookupProbes = { addresses: [], positions: [] };
  for (let start = 0; start < chosen.length; start += CHUNK_CITIES) {
    const groups = new Map<string, ReturnType<typeof groupOf>>();
    const cities = chosen.slice(start, start + CHUNK_CITIES).map((commune, offset) => {
      const index = start + offset;
      const epci = epciOf.get(commune.code);
      if (epci) groups.set(epci.code, groupOf(epci));
      // The template's name appears in its texts ("À Plabennec, …"): the clone speaks of its own commune.
      const renamed = JSON.parse(templateText.split(template.name).join(commune.nom.replace(/["\\]/g, '')));
      const city = remapTree(renamed, templateIds, (id) => uuidV5(`city:${commune.code}/${id}`)) as any;
      city.name = commune.nom;
      city.population = commune.population ?? null;
      city.cityGroupId = epci ? uuidV5(`epci:${epci.code}`) : null;
      const places = city.wasteCollectionPlaces as any[];
      const streets = generatedStreets(commune.code, places.map((p) => p.id));
      const areas = generatedAreas(index, places.length);
      places.forEach((place, j) => {
        place.streets = streets.get(place.id);
        place.area = areas[j];
      });
      addProbes(probes, city, PROBE_STREETS_PER_CITY);
      return city;
    });
    for (const code of groups.keys()) allGroups.add(code);
    const file = path.join(options.outDir, `scale-${String(files.length).padStart(3, '0')}.json`);
    const text = JSON.stringify({ cityGroups: [...groups.values()], cities });
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
    files.push(file);
  }
  return { files, cities: chosen.length, groups: allGroups.size, bytes, probes };
}

if (import.meta.main) {
  const [count, outDir] = process.argv.slice(2);
  const root = path.resolve(import.meta.dirname, '..');
  const set = generateScaleBundles({ count: Number(count), outDir, demoBundle: path.join(root, 'demo/bundle.json') });
  console.log(`${set.cities} cities in ${set.groups} groups, ${set.files.length} files, ${(set.bytes / 2 ** 20).toFixed(0)} MiB`);
}
