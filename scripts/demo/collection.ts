import type {
  BundleAttachedLocation,
  BundleCollectionDay,
  BundleCollectionException,
  BundleCollectionPlace,
} from '../../src/bundle/schema.ts';
import {
  addDays,
  frenchDate,
  parisMidnight,
  publicHolidaysBetween,
  weekdayOf,
  weeksBetween,
  type Weekday,
} from './dates.ts';
import { demoId, slug, stableFraction } from './ids.ts';
import type { BinKey } from './sorting.ts';
import type { Commune } from './territory.ts';

/** The year of holidays the demo announces: from the day the data set describes, for twelve months. */
export const HOLIDAYS_FROM = '2026-11-22';
export const HOLIDAYS_TO = '2027-11-22';

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

function exceptionsFor(
  placeName: string,
  rules: DayRule[],
  wasteTypeIds: Record<BinKey, string>,
): BundleCollectionException[] {
  const exceptions: BundleCollectionException[] = [];
  for (const holiday of publicHolidaysBetween(HOLIDAYS_FROM, HOLIDAYS_TO)) {
    for (const rule of rules) {
      if (!fallsOn(rule, holiday.day)) continue;
      const replacement = addDays(holiday.day, 1);
      exceptions.push({
        id: demoId(`${placeName}/exception:${rule.stream}:${holiday.day}`),
        dateFrom: parisMidnight(holiday.day),
        dateTo: null,
        wasteTypeId: wasteTypeIds[rule.stream],
        name: holiday.name,
        description:
          `Pas de collecte le ${frenchDate(holiday.day, false)} (${holiday.name}) : ` +
          `collecte reportée au ${frenchDate(replacement, false)}.`,
      });
    }
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

function attachedLocations(placeName: string, commune: Commune, sectorIndex: number, streets: string[]): BundleAttachedLocation[] {
  // Sectors sit around the commune's centre (the first one on it); streets within a few hundred metres.
  const angle = (sectorIndex * 2 * Math.PI) / 3 + stableFraction(placeName) * 0.8;
  const spread = commune.population > 10_000 ? 0.014 : 0.008;
  const centreLat = commune.lat + (sectorIndex === 0 ? 0 : Math.sin(angle) * spread);
  const centreLon = commune.lon + (sectorIndex === 0 ? 0 : Math.cos(angle) * spread * 1.5);
  return streets.map((street) => {
    const key = `${placeName}/street:${slug(street)}`;
    const dLat = (stableFraction(`${key}:lat`) - 0.5) * 0.006;
    const dLon = (stableFraction(`${key}:lon`) - 0.5) * 0.009;
    return {
      id: demoId(key),
      name: street,
      // Shaped like a BAN street identifier: INSEE code, underscore, four characters.
      reference: `${commune.insee}_${String(Math.floor(stableFraction(`${key}:ref`) * 9000) + 1000)}`,
      latitude: Number((centreLat + dLat).toFixed(5)),
      longitude: Number((centreLon + dLon).toFixed(5)),
    };
  });
}

/** The collection places of a commune. `firstRound` is the number of sectors of the territory before it. */
export function collectionPlaces(
  commune: Commune,
  firstRound: number,
  wasteTypeIds: Record<BinKey, string>,
): BundleCollectionPlace[] {
  return commune.sectors.map((sector, index) => {
    const placeName = `city:${commune.insee}/place:${slug(sector.name)}`;
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
      attachedLocations: attachedLocations(placeName, commune, index, sector.streets),
    };
  });
}
