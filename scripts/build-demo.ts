/**
 * Builds the demo data set: demo/bundle.json (an import bundle, CONTRACT section 10) and demo/media/*.
 * Deterministic: every id is a name-based UUID and every date is fixed, so a rebuild changes nothing
 * unless this code or its sources (@etalab/decoupage-administratif, ADEME's products) change.
 *
 *   npm run demo:build
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Area, Bundle, BundleCity, BundleCityGroup, BundleWasteType } from '../src/bundle/schema.ts';
import { blogPosts } from './demo/blog.ts';
import { challenges, quizQuestions } from './demo/challenges.ts';
import { sites } from './demo/cms.ts';
import { checkAreas, sectorAreas } from './demo/areas.ts';
import { collectionPlaces, sectorSite } from './demo/collection.ts';
import { frequentlyAskedQuestions } from './demo/faq.ts';
import { guidance } from './demo/guidance.ts';
import { demoId } from './demo/ids.ts';
import { writeMedia } from './demo/media.ts';
import { dropOffStreams } from './demo/drop-off.ts';
import { hasTextileBank, recyclingPoints } from './demo/recycling.ts';
import { loadStreams, type BinKey, type Stream, type StreamKey } from './demo/sorting.ts';
import { loadTerritories, type Commune, type Territory } from './demo/territory.ts';

const DEMO_DIR = path.resolve(import.meta.dirname, '..', 'demo');
/** When the demo's records were "created": before every date they mention. */
const CREATED_AT = '2026-09-14T07:00:00.000Z';

/** The ids of a city's waste types: every city has the bins, the drop-off streams vary (textiles). */
export type WasteTypeIds = Record<BinKey, string> & Partial<Record<StreamKey, string>>;

function wasteTypes(cityName: string, streams: Stream[]): { types: BundleWasteType[]; ids: WasteTypeIds } {
  const ids = {} as WasteTypeIds;
  const types = streams.map((stream): BundleWasteType => {
    const id = demoId(`${cityName}/waste-type:${stream.key}`);
    ids[stream.key] = id;
    return {
      id,
      name: stream.name,
      description: stream.description,
      instructions: stream.instructions,
      color: stream.color,
      colorLight: stream.colorLight,
      icon: stream.icon,
      imageUrl: null,
      details: stream.materials.map((m) => ({
        id: demoId(`${cityName}/waste-type:${stream.key}/detail:ademe-${m.ademeId}`),
        material: m.material,
        description: m.description,
        instructions: m.instructions,
        imageUrl: null,
      })),
    };
  });
  return { types, ids };
}

function city(
  territory: Territory,
  commune: Commune,
  groupId: string,
  firstRound: number,
  bins: Stream[],
  areas: Map<string, Area>,
): BundleCity {
  const cityName = `city:${commune.insee}`;
  const streams = [...bins, ...dropOffStreams(hasTextileBank(commune))];
  const { types, ids } = wasteTypes(cityName, streams);
  return {
    id: demoId(cityName),
    name: commune.name,
    country: 'France',
    population: commune.population,
    status: commune.active ? 'ACTIF' : 'NON_ACTIF',
    timeZone: 'Europe/Paris',
    ...guidance(territory, commune.name),
    cityGroupId: groupId,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    wasteTypes: types,
    wasteCollectionPlaces: collectionPlaces(commune, firstRound, ids, areas),
    recyclingPoints: recyclingPoints(commune, ids),
    quizQuestions: quizQuestions(cityName, ids, streams),
    challenges: challenges(cityName),
  };
}

export async function buildDemo(demoDir: string = DEMO_DIR): Promise<Bundle> {
  const streams = loadStreams();
  const territories = loadTerritories();
  const cityGroups: BundleCityGroup[] = territories.map((t) => ({
    id: demoId(`city-group:${t.siren}`),
    name: t.name,
    type: t.type,
    code: t.code,
    siren: t.siren,
    chatEnabled: t.chatEnabled,
    ...t.contact,
    // As the cities' texts say: a collection on a public holiday is made the next day, Saturday included.
    holidayRules: [{ holiday: '*', wasteTypeId: null, action: 'NEXT_DAY' }],
    faq: frequentlyAskedQuestions(t, CREATED_AT),
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
  }));
  const groupIdByCode = Object.fromEntries(territories.map((t, i) => [t.code, cityGroups[i].id])) as Record<
    'BM' | 'CCPA',
    string
  >;

  const areas = sectorAreas(territories.flatMap((t) => t.communes.flatMap((c) => c.sectors.map((_, i) => sectorSite(c, i)))));
  const cities: BundleCity[] = [];
  territories.forEach((territory, i) => {
    let round = 0;
    for (const commune of territory.communes) {
      cities.push(city(territory, commune, cityGroups[i].id, round, streams, areas));
      round += commune.sectors.length;
    }
  });
  checkAreas(cities);

  const media = await writeMedia(streams, demoDir, path.join(demoDir, 'media'));
  return {
    cityGroups,
    cities,
    blogPosts: blogPosts(groupIdByCode),
    sites: sites(groupIdByCode.BM),
    media,
  };
}

/**
 * JSON that diffs well and stays small: one line per record whose fields are all plain values
 * (a collection day, a quiz question), indentation for everything that nests.
 */
export function formatBundle(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + formatBundle(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.every(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => typeof x !== 'object')))) {
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
  }
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatBundle(v, inner)}`).join(',\n')}\n${indent}}`;
}

if (import.meta.main) {
  const bundle = await buildDemo();
  const file = path.join(DEMO_DIR, 'bundle.json');
  await fs.writeFile(file, `${formatBundle(bundle)}\n`);
  const stat = await fs.stat(file);
  console.log(
    `demo/bundle.json: ${bundle.cityGroups?.length} groups, ${bundle.cities?.length} cities, ` +
      `${bundle.blogPosts?.length} blog posts, ${bundle.sites?.length} sites, ${bundle.media?.length} media ` +
      `(${Math.round(stat.size / 1024)} KiB)`,
  );
}
