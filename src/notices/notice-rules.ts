import type { RecordFault } from '../domain/rules/faults.ts';
import { noticeMessages } from '../kernel/validation-messages.ts';

/**
 * A service notice's write rules (docs/api.md, collections that move and service notices), pure: the cities it names are its group's, the places it
 * names are of those cities (of the group's when it names none), and it ends after it starts; each date a real
 * instant of the years both databases and the contract's form hold (the schema's date-time format lets a leap second
 * through, which no Date holds, and years 0 and 10000, which PGlite refuses or the form cannot write). The admin API runs them
 * on the record as it will be stored; the first fault is its 400, naming the field (`placeIds[1]`).
 */

export interface NoticeScope {
  cityIds: readonly string[];
  placeIds: readonly string[];
}

/** What the rules check a notice's lists against: the group's cities, and the city of each named place of the group. */
export interface NoticeReferences {
  groupCityIds: ReadonlySet<string>;
  /** Place id → its city, for the named places that are of the group. */
  placeCity: ReadonlyMap<string, string>;
}

export function noticeScopeFaults(scope: NoticeScope, refs: NoticeReferences): RecordFault[] {
  const faults: RecordFault[] = [];
  scope.cityIds.forEach((id, i) => {
    if (!refs.groupCityIds.has(id)) faults.push({ path: `cityIds[${i}]`, message: noticeMessages.notACityOfTheGroup(id) });
  });
  const cities = new Set(scope.cityIds);
  scope.placeIds.forEach((id, i) => {
    const city = refs.placeCity.get(id);
    if (scope.cityIds.length === 0 && city === undefined) {
      faults.push({ path: `placeIds[${i}]`, message: noticeMessages.notAPlaceOfTheGroup(id) });
    } else if (scope.cityIds.length > 0 && (city === undefined || !cities.has(city))) {
      faults.push({ path: `placeIds[${i}]`, message: noticeMessages.notAPlaceOfTheCities(id) });
    }
  });
  return faults;
}

/** The instants a notice's dates may name: real ones, from 1970 to the end of 9999 (UTC). */
const FIRST_INSTANT = Date.UTC(1970, 0, 1);
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const isInstant = (date: Date) => date.getTime() >= FIRST_INSTANT && date.getTime() <= LAST_INSTANT;

export function noticeTimeFaults(startsAt: Date, endsAt: Date | null): RecordFault[] {
  if (!isInstant(startsAt)) return [{ path: 'startsAt', message: noticeMessages.notAnInstant }];
  if (endsAt !== null && !isInstant(endsAt)) return [{ path: 'endsAt', message: noticeMessages.notAnInstant }];
  return endsAt !== null && endsAt.getTime() <= startsAt.getTime() ? [{ path: 'endsAt', message: noticeMessages.endsNotAfterStart }] : [];
}
