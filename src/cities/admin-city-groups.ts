import { randomUUID } from 'node:crypto';
import { assertNoFault, groupFound, type AdminStore } from '../admin/store.ts';
import type { AdminAgent } from '../admin/agent.ts';
import { cityGroupFaults, embedOrigin, embedOriginFaults, holidayRuleFaults } from '../domain/rules/cities.ts';
import { groupWasteTypeIds, holidayRulesOf, replaceHolidayRules } from '../domain/holiday-rules.ts';
import type { HolidayRule } from '../domain/collection-calendar.ts';
import { errors } from '../kernel/errors.ts';
import { timestamps } from '../kernel/french.ts';
import { holdingsOf } from './holdings.ts';
import { groupContactColumns, toGroupContact } from '../domain/group-contact.ts';
import * as repo from './group-repository.ts';
import type { CityGroupRow } from './group-repository.ts';
import type { AdminCityGroup, CityGroupPatch, CreateCityGroupInput } from './admin-schemas.ts';

/**
 * The admin API's city groups (docs/api.md, the admin API), a top-level resource at `/admin/city-groups`. An agent reads its
 * own groups (another group answers 404, as if missing); only a super admin creates, changes or deletes one (403),
 * but for its holiday rules (section 16), which the group's own agents with the permission CITIES write: they decide
 * the group's collections like its places' exceptions do. A group that still holds cities, blog posts, sites or
 * conversations is not deleted (409): the database would leave its cities without a group and delete its posts and
 * conversations with it.
 */

export const toAdminCityGroup = (row: CityGroupRow, holidayRules: HolidayRule[]): AdminCityGroup => ({
  id: row.id,
  name: row.name,
  type: row.type,
  code: row.code,
  siren: row.siren,
  siret: row.siret,
  chatEnabled: row.chat_enabled,
  ...toGroupContact(row),
  holidayRules,
  embedOrigins: row.embed_origins,
  ...timestamps(row),
});

function assertSuperAdmin(agent: AdminAgent): void {
  if (!agent.superAdmin) throw errors.superAdminOnly();
}

type CityGroupFields = Omit<AdminCityGroup, 'id' | 'createdAt' | 'updatedAt' | 'holidayRules'>;

/** The record as the bundle would hold it must pass the bundle's rules: 400 naming the first faulty field. */
function columns(group: CityGroupFields, now: Date) {
  assertNoFault([...cityGroupFaults(group), ...embedOriginFaults(group.embedOrigins)]);
  return {
    name: group.name.trim(),
    type: group.type.trim(),
    code: group.code.trim(),
    siren: group.siren,
    siret: group.siret,
    chat_enabled: group.chatEnabled,
    ...groupContactColumns(group),
    embed_origins: group.embedOrigins.map((origin) => embedOrigin(origin)!),
    updated_at: now,
  };
}

/** The group's rules as the bundle would hold them must pass its rules (400 naming `holidayRules[i]…`); then stored. */
async function writeHolidayRules(trx: Parameters<typeof replaceHolidayRules>[0], groupId: string, rules: HolidayRule[]): Promise<void> {
  assertNoFault(holidayRuleFaults(rules, { wasteTypeIds: await groupWasteTypeIds(trx, groupId) }));
  await replaceHolidayRules(trx, groupId, rules);
}

export const cityGroupStore: AdminStore<CityGroupRow, AdminCityGroup, never, CreateCityGroupInput, CityGroupPatch> = {
  entity: 'cityGroup',
  notFound: errors.cityGroupNotFound,
  find: async (db, id, options) => groupFound(await repo.findCityGroup(db, id, options)),
  list: (db, _parent, page, scope) => repo.listCityGroups(db, page, scope),
  async show(db, rows) {
    const rules = await holidayRulesOf(db, rows.map((row) => row.id));
    return rows.map((row) => toAdminCityGroup(row, rules.get(row.id) ?? []));
  },
  async insert(trx, { agent, now }, { holidayRules, ...input }) {
    assertSuperAdmin(agent);
    const fields = { siret: null, chatEnabled: false, contactPhone: null, contactEmail: null, contactHours: null, contactAddress: null, embedOrigins: [], ...input };
    const row = await repo.insertCityGroup(trx, randomUUID(), columns(fields, now), now);
    // A new group has no city, so no waste type a rule could name: only rules for every waste type pass.
    if (holidayRules) await writeHolidayRules(trx, row.id, holidayRules);
    return row;
  },
  async update(trx, { agent, subject, now }, { holidayRules, embedOrigins, ...patch }) {
    // The group's own agents holding CITIES write its holiday rules and the sites that frame its widgets; the rest is the super admin's.
    const onlyTheirs = Object.values(patch).every((value) => value === undefined);
    if (!agent.superAdmin && !(onlyTheirs && agent.permissions.includes('CITIES'))) assertSuperAdmin(agent);
    if (holidayRules) await writeHolidayRules(trx, subject.row.id, holidayRules);
    // The row's updated_at moves with its rules too: the group changed.
    const { holidayRules: _rules, ...record } = subject.record;
    return repo.updateCityGroup(trx, subject.row.id, columns({ ...record, ...patch, embedOrigins: embedOrigins ?? record.embedOrigins }, now));
  },
  async remove(trx, { agent, subject }) {
    assertSuperAdmin(agent);
    const holdings = holdingsOf(await repo.countCityGroupHoldings(trx, subject.row.id));
    if (holdings) throw errors.cityGroupNotEmpty(holdings);
    await repo.deleteCityGroup(trx, subject.row.id);
  },
};
