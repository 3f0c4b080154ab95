import { streetRulesOverlap } from '../../src/cities/place-rules.ts';
import { streetKey } from '../../src/kernel/address.ts';
import type {
  Area,
  BundleAttachedLocation,
  BundleCollectionDay,
  BundleCollectionException,
  BundleCollectionPlace,
  BundleStreetRule,
} from '../../src/bundle/schema.ts';
import {
  parisMidnight,
  weekdayOf,
  weeksBetween,
  type Weekday,
} from './dates.ts';
import { demoId, slug, stableFraction } from './ids.ts';
import type { BinKey } from './sorting.ts';
import type { SectorSite } from './areas.ts';
import { ruleOf, SECTOR_STREETS } from './streets.ts';
import type { Commune, Sector } from './territory.ts';

/** Green waste is collected from March to November; the winter pause is an exception with an end. */
const GREEN_WINTER_PAUSE = { from: '2026-12-01', to: '2027-02-28' };

const WORKDAYS: Weekday[] = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi'];

interface DayRule {
  stream: BinKey;
  day: Weekday;
  biweekly: boolean;
  /** First day of the rule (a Monday); required for a biweekly rule. */
  startDay: string | null;
  description: string;
}

/**
 * The weekly round of one sector. `round` numbers the sectors of a territory, so that neighbouring
 * sectors are collected on different days, as the lorries of a real round would.
 */
function dayRules(commune: Commune, sectorIndex: number, round: number): DayRule[] {
  const rules: DayRule[] = [
    {
      stream: 'ordures-menageres',
      day: WORKDAYS[round % 5],
      biweekly: false,
      startDay: null,
      description: 'Collecte le matin à partir de 5 h 30 : sortez votre bac gris la veille au soir.',
    },
  ];
  // Dense city centres get a second household-waste round.
  if (commune.population > 100_000 && sectorIndex === 0) {
    rules.push({ ...rules[0], day: WORKDAYS[(round + 3) % 5] });
  }
  rules.push(
    {
      stream: 'biodechets',
      day: WORKDAYS[(round + 2) % 5],
      biweekly: false,
      startDay: null,
      description: 'Bac à couvercle marron, vidé chaque semaine.',
    },
    {
      stream: 'emballages',
      day: WORKDAYS[(round + 4) % 5],
      biweekly: true,
      startDay: round % 2 === 0 ? '2026-01-05' : '2026-01-12',
      description: 'Une semaine sur deux : sortez votre bac jaune la veille au soir.',
    },
    {
      stream: 'dechets-verts',
      day: WORKDAYS[(round + 1) % 5],
      biweekly: true,
      startDay: round % 2 === 0 ? '2026-03-09' : '2026-03-02',
      description: 'De mars à novembre, une semaine sur deux : bac vert ou fagots liés.',
    },
  );
  return rules;
}

function fallsOn(rule: DayRule, day: string): boolean {
  if (weekdayOf(day) !== rule.day) return false;
  if (rule.startDay && day < rule.startDay) return false;
  if (rule.biweekly && rule.startDay && weeksBetween(rule.startDay, day) % 2 !== 0) return false;
  if (rule.stream === 'dechets-verts' && day >= GREEN_WINTER_PAUSE.from && day <= GREEN_WINTER_PAUSE.to) return false;
  return true;
}

/**
 * The one-off changes of a few places, beside the group's holiday rules (build-demo.ts), which move every collection
 * falling on a public holiday to the next day: a collection moved for an event, one added after the holidays.
 */
const ONE_OFF_CHANGES: Record<string, { stream: BinKey; day: string; movedTo?: string; name: string; description: string }[]> = {
  'city:29019/place:centre-ville-et-recouvrance': [
    {
      stream: 'ordures-menageres',
      day: '2026-12-10',
      movedTo: '2026-12-11',
      name: 'Marché de Noël',
      description: 'Le marché de Noël occupe les rues du centre le jeudi 10 décembre : collecte reportée au vendredi 11 décembre.',
    },
    {
      stream: 'emballages',
      day: '2027-01-02',
      name: 'Collecte supplémentaire après les fêtes',
      description: 'Les bacs jaunes débordent après les fêtes : une collecte de plus le samedi 2 janvier.',
    },
  ],
};

function exceptionsFor(
  placeName: string,
  rules: DayRule[],
  wasteTypeIds: Record<BinKey, string>,
): BundleCollectionException[] {
  const exceptions: BundleCollectionException[] = [];
  for (const change of ONE_OFF_CHANGES[placeName] ?? []) {
    const planned = rules.some((rule) => rule.stream === change.stream && fallsOn(rule, change.day));
    // A move needs a collection to move; an addition, a day without one.
    if (planned !== (change.movedTo !== undefined)) throw new Error(`${placeName}: ${change.name} on ${change.day} does not fit its rounds`);
    exceptions.push({
      id: demoId(`${placeName}/exception:${change.stream}:${change.day}`),
      kind: change.movedTo ? 'MOVE' : 'ADD',
      dateFrom: parisMidnight(change.day),
      dateTo: null,
      movedTo: change.movedTo ? parisMidnight(change.movedTo) : null,
      wasteTypeId: wasteTypeIds[change.stream],
      name: change.name,
      description: change.description,
    });
  }
  if (rules.some((r) => r.stream === 'dechets-verts')) {
    exceptions.push({
      id: demoId(`${placeName}/exception:dechets-verts:pause-hivernale-2026`),
      dateFrom: parisMidnight(GREEN_WINTER_PAUSE.from),
      dateTo: parisMidnight(GREEN_WINTER_PAUSE.to),
      wasteTypeId: wasteTypeIds['dechets-verts'],
      name: 'Pause hivernale',
      description:
        'Pas de collecte des déchets verts du 1er décembre au 28 février : déposez-les en déchèterie. ' +
        'Reprise de la collecte début mars.',
    });
  }
  return exceptions.sort((a, b) => a.dateFrom.localeCompare(b.dateFrom));
}

/** The stable name of a commune's sector, from which its ids derive. */
export const placeNameOf = (commune: Commune, sector: Sector): string => `city:${commune.insee}/place:${slug(sector.name)}`;

/** Where a sector's streets are: the first sector on the commune's centre, the others around it. */
export function sectorSite(commune: Commune, sectorIndex: number): SectorSite {
  const sector = commune.sectors[sectorIndex];
  const placeName = placeNameOf(commune, sector);
  const angle =
    sector.bearing !== undefined ? (sector.bearing * Math.PI) / 180 : (sectorIndex * 2 * Math.PI) / 3 + stableFraction(placeName) * 0.8;
  const spread = commune.population > 10_000 ? 0.014 : 0.008;
  return {
    placeName,
    commune,
    lat: commune.lat + (sectorIndex === 0 ? 0 : Math.sin(angle) * spread),
    lon: commune.lon + (sectorIndex === 0 ? 0 : Math.cos(angle) * spread * 1.5),
  };
}

function attachedLocations(site: SectorSite, streets: string[]): BundleAttachedLocation[] {
  // Streets within a few hundred metres of the sector's site.
  const { placeName, commune } = site;
  return streets.map((street) => {
    const key = `${placeName}/street:${slug(street)}`;
    const dLat = (stableFraction(`${key}:lat`) - 0.5) * 0.006;
    const dLon = (stableFraction(`${key}:lon`) - 0.5) * 0.009;
    return {
      id: demoId(key),
      name: street,
      // Shaped like a BAN street identifier: INSEE code, underscore, four characters.
      reference: `${commune.insee}_${String(Math.floor(stableFraction(`${key}:ref`) * 9000) + 1000)}`,
      latitude: Number((site.lat + dLat).toFixed(5)),
      longitude: Number((site.lon + dLon).toFixed(5)),
    };
  });
}

/**
 * The street rules of a sector (streets.ts); none for a commune that has not joined the service. Throws when an
 * attached location's street is not among its own sector's rules, or when two sectors claim one address.
 */
function streetRules(commune: Commune, sector: Sector, placeName: string): BundleStreetRule[] {
  if (!commune.active) return [];
  const entries = SECTOR_STREETS[commune.insee]?.[sector.name];
  if (!entries) throw new Error(`${commune.name} / ${sector.name}: no streets in streets.ts`);
  const rules = entries.map(ruleOf);
  for (const street of sector.streets) {
    if (!rules.some((r) => streetKey(r.street) === streetKey(street))) {
      throw new Error(`${commune.name} / ${sector.name}: attached location ${street} is not one of its streets`);
    }
  }
  for (const other of commune.sectors) {
    if (other === sector) continue;
    for (const rule of rules) {
      const clash = (SECTOR_STREETS[commune.insee]?.[other.name] ?? []).map(ruleOf).find((r) => streetRulesOverlap(rule, r));
      if (clash) throw new Error(`${commune.name}: ${rule.street} is claimed by ${sector.name} and ${other.name}`);
    }
  }
  return rules.map((rule) => ({
    id: demoId(`${placeName}/street-rule:${slug(rule.street)}:${rule.side}:${rule.fromNumber ?? ''}-${rule.toNumber ?? ''}`),
    ...rule,
  }));
}

/** The collection places of a commune. `firstRound` is the number of sectors of the territory before it. */
export function collectionPlaces(
  commune: Commune,
  firstRound: number,
  wasteTypeIds: Record<BinKey, string>,
  areas: Map<string, Area>,
): BundleCollectionPlace[] {
  return commune.sectors.map((sector, index) => {
    const site = sectorSite(commune, index);
    const placeName = site.placeName;
    const rules = dayRules(commune, index, firstRound + index);
    const collectionDays: BundleCollectionDay[] = rules.map((rule) => ({
      id: demoId(`${placeName}/day:${rule.stream}:${rule.day}`),
      name: rule.day,
      wasteTypeId: wasteTypeIds[rule.stream],
      description: rule.description,
      biweekly: rule.biweekly,
      startDate: rule.startDay ? parisMidnight(rule.startDay) : null,
    }));
    return {
      id: demoId(placeName),
      name: sector.name,
      collectionDays,
      exceptions: exceptionsFor(placeName, rules, wasteTypeIds),
      attachedLocations: attachedLocations(site, sector.streets),
      streets: streetRules(commune, sector, placeName),
      area: areas.get(placeName) ?? null,
    };
  });
}
