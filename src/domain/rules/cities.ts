import { isValidTimeZone } from '../../kernel/dates.ts';
import { bundleMessages } from '../../kernel/validation-messages.ts';
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

export function collectionExceptionFaults(
  exception: { wasteTypeId: string; dateFrom: string; dateTo?: string | null },
  city: CityWasteTypes,
): RecordFault[] {
  const faults = wasteTypeFaults(exception.wasteTypeId, 'wasteTypeId', city);
  if (exception.dateTo != null && Date.parse(exception.dateTo) < Date.parse(exception.dateFrom)) {
    faults.push({ path: 'dateTo', message: bundleMessages.endsBefore('dateFrom') });
  }
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
