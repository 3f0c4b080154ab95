import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, groupFound, inGroup, type AdminStore } from '../admin/store.ts';
import { cityFaults, cityGroupReferenceFaults } from '../domain/rules/cities.ts';
import { errors } from '../kernel/errors.ts';
import { timestamps } from '../kernel/french.ts';
import { holdingsOf } from './holdings.ts';
import * as repo from './group-repository.ts';
import type { CityGroupRow, CityRow } from './group-repository.ts';
import type { AdminCity, CityPatch, CreateCityInput } from './admin-schemas.ts';

/**
 * The admin API's cities (docs/api.md, the admin API): listed and created under their group
 * (`/admin/city-groups/:cityGroupId/cities`), then read, changed and deleted at `/admin/cities/:id`. A PATCH of
 * `cityGroupId` moves the city: into a group the agent does not hold it answers 404, as if the group were missing (a
 * super admin moves it anywhere, or out of every group with null). Checked with the import bundle's city rules (a
 * known IANA time zone, a group that exists). A city that still holds anything is not deleted (409): every foreign key
 * to a city cascades, and a city is hidden from citizens by `status` NON_ACTIF anyway.
 */

const DEFAULT_TIME_ZONE = 'Europe/Paris';

export const toAdminCity = (row: CityRow): AdminCity => ({
  id: row.id,
  name: row.name,
  country: row.country,
  population: row.population,
  status: row.status,
  timeZone: row.time_zone,
  holidayCalendar: row.holiday_calendar,
  outOfTheBins: row.out_of_the_bins,
  presentationOfBins: row.presentation_of_bins,
  returnOfBins: row.return_of_bins,
  respectOfCalendar: row.respect_of_calendar,
  holidays: row.holidays,
  cityGroupId: row.city_group_id,
  ...timestamps(row),
});

type CityFields = Omit<AdminCity, 'id' | 'createdAt' | 'updatedAt' | 'timeZone'> & { timeZone: string | null };

/** The city as the bundle would hold it must pass the bundle's rules (400 naming the field); answers its columns. */
function columns(city: CityFields, now: Date) {
  assertNoFault(cityFaults(city));
  return {
    name: city.name.trim(),
    country: city.country.trim(),
    population: city.population,
    status: city.status,
    time_zone: city.timeZone ?? DEFAULT_TIME_ZONE,
    holiday_calendar: city.holidayCalendar,
    out_of_the_bins: city.outOfTheBins,
    presentation_of_bins: city.presentationOfBins,
    return_of_bins: city.returnOfBins,
    respect_of_calendar: city.respectOfCalendar,
    holidays: city.holidays,
    city_group_id: city.cityGroupId,
    updated_at: now,
  };
}

/** A group named by a move: one the bundle's rule knows (the database holds it), else 400 naming `cityGroupId`. */
async function assertGroupExists(db: Kysely<DB>, groupId: string): Promise<void> {
  const known = (await repo.cityGroupExists(db, groupId)) ? [groupId] : [];
  assertNoFault(cityGroupReferenceFaults({ cityGroupId: groupId }, { cityGroupIds: new Set(known) }));
}

export const cityStore: AdminStore<CityRow, AdminCity, CityGroupRow, CreateCityInput, CityPatch> = {
  entity: 'city',
  notFound: errors.cityNotFound,
  parentNotFound: errors.cityGroupNotFound,
  findParent: async (db, groupId) => groupFound(await repo.findCityGroup(db, groupId)),
  find: async (db, id, options) => inGroup(await repo.findCity(db, id, options)),
  list: (db, group, page) => repo.listGroupCities(db, group!.id, page),
  show: async (_db, rows) => rows.map(toAdminCity),
  insert(trx, { subject: group, now }, input) {
    const fields = {
      population: null, timeZone: null, holidayCalendar: 'FR' as const, outOfTheBins: null, presentationOfBins: null, returnOfBins: null, respectOfCalendar: null,
      holidays: null, ...input, cityGroupId: group!.id,
    };
    return repo.insertCity(trx, randomUUID(), columns(fields, now), now);
  },
  async update(trx, { subject, now, reachable }, patch) {
    const target = patch.cityGroupId === undefined ? subject.record.cityGroupId : patch.cityGroupId?.toLowerCase() ?? null;
    if (target !== subject.record.cityGroupId) {
      // Into a group the agent does not hold: as if it were missing. Then, for a super admin, the bundle's rule.
      reachable({ row: target, groupIds: [target] }, () => errors.cityGroupNotFound('cityGroupId'));
      if (target !== null) await assertGroupExists(trx, target);
    }
    return repo.updateCity(trx, subject.row.id, columns({ ...subject.record, ...patch, cityGroupId: target }, now));
  },
  async remove(trx, { subject }) {
    const holdings = holdingsOf(await repo.countCityHoldings(trx, subject.row.id));
    if (holdings) throw errors.cityNotEmpty(holdings);
    await repo.deleteCity(trx, subject.row.id);
  },
};
