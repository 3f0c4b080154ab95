import { dayInTimeZone, isValidTimeZone, resolveTimeZone } from '../../kernel/dates.ts';
import { MAX_MOVE_DAYS, type ExceptionKind, type HolidayAction } from '../collection-calendar.ts';
import { bundleMessages, embedMessages } from '../../kernel/validation-messages.ts';
import { openingHoursSpecProblem } from '../opening-hours.ts';
import type { RecordFault } from './faults.ts';

/**
 * The rules of city groups, cities and what a city holds, once their shape is right. Each checks one record with
 * the ids it may reference and answers its faults, their paths relative to the record (`startDate`, `materials[1]`):
 * the import runs them over a whole bundle (src/bundle/walk.ts); the admin API's writes of the cities, calendar,
 * recycling and challenges areas run them on one record. A record is given by the fields a rule reads, as the bundle
 * and the admin API both name them.
 */

/** What a record of a city may reference: the city's own waste types. */
export interface CityWasteTypes {
  wasteTypeIds: ReadonlySet<string>;
}

/** What may reference a city group: the groups that exist (in the bundle or in the database). */
export interface KnownCityGroups {
  cityGroupIds: ReadonlySet<string>;
}

export function cityGroupFaults(group: { siren: string; siret?: string | null }): RecordFault[] {
  // A SIRET is the SIREN followed by the establishment's number.
  if (group.siret != null && group.siren.length === 9 && !group.siret.startsWith(group.siren)) {
    return [{ path: 'siret', message: bundleMessages.siretOfAnotherSiren(group.siren) }];
  }
  return [];
}

/**
 * An origin allowed to frame the widgets, normalised (`HTTPS://Www.Plouzane.fr/` -> `https://www.plouzane.fr`), or
 * null when it is not one: `https://` only (a framed page over plain HTTP would leak what residents type), a host, no
 * credentials, path, query nor fragment.
 */
export function embedOrigin(value: string): string | null {
  const text = value.trim();
  // The text may only be the origin, with at most a trailing slash: `https://a.fr/x` is a page, not a site.
  if (!/^https:\/\/[^/?#@\\\s]+\/?$/i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.hostname ? url.origin : null;
  } catch {
    return null;
  }
}

/** A group's `embedOrigins`: each an `https://` origin, none twice (400 naming `embedOrigins[i]`). */
export function embedOriginFaults(origins: readonly string[]): RecordFault[] {
  const seen = new Set<string>();
  const faults: RecordFault[] = [];
  origins.forEach((value, i) => {
    const origin = embedOrigin(value);
    if (origin === null) faults.push({ path: `embedOrigins[${i}]`, message: embedMessages.notAnHttpsOrigin });
    else if (seen.has(origin)) faults.push({ path: `embedOrigins[${i}]`, message: embedMessages.repeated(origin) });
    else seen.add(origin);
  });
  return faults;
}

export function cityFaults(city: { timeZone?: string | null }): RecordFault[] {
  if (city.timeZone != null && !isValidTimeZone(city.timeZone)) return [{ path: 'timeZone', message: bundleMessages.unknownTimeZone }];
  return [];
}

/** A city, a blog post or a site names its group; the rule needs the database, so it runs after the others. */
export function cityGroupReferenceFaults(record: { cityGroupId?: string | null }, known: KnownCityGroups): RecordFault[] {
  const id = record.cityGroupId;
  if (id == null || known.cityGroupIds.has(id)) return [];
  return [{ path: 'cityGroupId', message: bundleMessages.unknownCityGroup(id) }];
}

export function collectionDayFaults(
  day: { wasteTypeId: string; biweekly?: boolean | null; startDate?: string | null },
  city: CityWasteTypes,
): RecordFault[] {
  const faults = wasteTypeFaults(day.wasteTypeId, 'wasteTypeId', city);
  if (day.biweekly === true && day.startDate == null) faults.push({ path: 'startDate', message: bundleMessages.startDateOfBiweekly });
  return faults;
}

/** An exception of the bundle or the admin API: a kind (CANCEL when absent) and the dates that kind needs. */
export interface ExceptionRecord {
  wasteTypeId: string;
  kind?: ExceptionKind | null;
  dateFrom: string;
  dateTo?: string | null;
  movedTo?: string | null;
}

/**
 * The waste type is the city's; CANCEL may span days (dateTo on or after dateFrom) and never moves; MOVE names the
 * day it moves to, another day within MAX_MOVE_DAYS of dateFrom on the city's calendar; MOVE and ADD are one day.
 */
export function collectionExceptionFaults(exception: ExceptionRecord, city: CityWasteTypes & { timeZone?: string | null }): RecordFault[] {
  const faults = wasteTypeFaults(exception.wasteTypeId, 'wasteTypeId', city);
  const kind = exception.kind ?? 'CANCEL';
  if (kind === 'CANCEL') {
    if (exception.dateTo != null && Date.parse(exception.dateTo) < Date.parse(exception.dateFrom)) {
      faults.push({ path: 'dateTo', message: bundleMessages.endsBefore('dateFrom') });
    }
  } else if (exception.dateTo != null) {
    faults.push({ path: 'dateTo', message: bundleMessages.nullForKind('MOVE ou ADD') });
  }
  if (kind !== 'MOVE') {
    if (exception.movedTo != null) faults.push({ path: 'movedTo', message: bundleMessages.nullForKind('CANCEL ou ADD') });
  } else if (exception.movedTo == null) {
    faults.push({ path: 'movedTo', message: bundleMessages.requiredForKind('MOVE') });
  } else {
    const timeZone = resolveTimeZone(city.timeZone);
    const days = dayInTimeZone(new Date(exception.movedTo), timeZone) - dayInTimeZone(new Date(exception.dateFrom), timeZone);
    if (days === 0 || Math.abs(days) > MAX_MOVE_DAYS) faults.push({ path: 'movedTo', message: bundleMessages.movedTooFar(MAX_MOVE_DAYS) });
  }
  return faults;
}

/** What a city group's holiday rules may reference: the waste types of the group's cities. */
export interface GroupWasteTypes {
  wasteTypeIds: ReadonlySet<string>;
}

/**
 * A group's holiday rules, as a list: each names a waste type of the group's cities (or null for all), and no two
 * name the same holiday and waste type (which would win is then unsaid). Paths are relative to the group:
 * `holidayRules[1].wasteTypeId`.
 */
export function holidayRuleFaults(
  rules: readonly { holiday: string; wasteTypeId?: string | null; action: HolidayAction }[],
  group: GroupWasteTypes,
): RecordFault[] {
  const faults: RecordFault[] = [];
  const first = new Map<string, number>();
  rules.forEach((rule, i) => {
    const wasteTypeId = rule.wasteTypeId?.toLowerCase() ?? null;
    if (wasteTypeId !== null && !group.wasteTypeIds.has(wasteTypeId)) {
      faults.push({ path: `holidayRules[${i}].wasteTypeId`, message: bundleMessages.notAWasteTypeOfTheGroup(wasteTypeId) });
    }
    const target = `${rule.holiday} ${wasteTypeId ?? '*'}`;
    const earlier = first.get(target);
    if (earlier === undefined) first.set(target, i);
    else faults.push({ path: `holidayRules[${i}]`, message: bundleMessages.holidayRuleTwice(`holidayRules[${earlier}]`) });
  });
  return faults;
}

/** Its opening hours must parse; its materials are waste types of the city, each once. */
export function recyclingPointFaults(
  point: { openingHoursSpec?: string | null; materials?: readonly string[] | null },
  city: CityWasteTypes,
): RecordFault[] {
  const faults: RecordFault[] = [];
  if (point.openingHoursSpec != null) {
    const problem = openingHoursSpecProblem(point.openingHoursSpec);
    if (problem) faults.push({ path: 'openingHoursSpec', message: problem });
  }
  const taken = new Set<string>();
  (point.materials ?? []).forEach((wasteTypeId, i) => {
    const path = `materials[${i}]`;
    if (taken.has(wasteTypeId)) faults.push({ path, message: bundleMessages.wasteTypeTwice(wasteTypeId) });
    else faults.push(...wasteTypeFaults(wasteTypeId, path, city));
    taken.add(wasteTypeId);
  });
  return faults;
}

export function quizQuestionFaults(question: { correctWasteTypeId: string }, city: CityWasteTypes): RecordFault[] {
  return wasteTypeFaults(question.correctWasteTypeId, 'correctWasteTypeId', city);
}

function wasteTypeFaults(id: string, path: string, city: CityWasteTypes): RecordFault[] {
  return city.wasteTypeIds.has(id) ? [] : [{ path, message: bundleMessages.notAWasteTypeOfTheCity(id) }];
}
