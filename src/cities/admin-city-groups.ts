import { randomUUID } from 'node:crypto';
import { assertNoFault, groupFound, type AdminStore } from '../admin/store.ts';
import type { AdminAgent } from '../admin/agent.ts';
import { cityGroupFaults } from '../domain/rules/cities.ts';
import { errors } from '../kernel/errors.ts';
import { countedList, timestamps } from '../kernel/french.ts';
import { groupContactColumns, toGroupContact } from '../domain/group-contact.ts';
import * as repo from './group-repository.ts';
import type { CityGroupRow } from './group-repository.ts';
import type { AdminCityGroup, CityGroupPatch, CreateCityGroupInput } from './admin-schemas.ts';

/**
 * The admin API's city groups (CONTRACT section 13), a top-level resource at `/admin/city-groups`. An agent reads its
 * own groups (another group answers 404, as if missing); only a super admin creates, changes or deletes one (403). A
 * group that still holds cities, blog posts, sites or conversations is not deleted (409): the database would leave
 * its cities without a group and delete its posts and conversations with it.
 */

export const toAdminCityGroup = (row: CityGroupRow): AdminCityGroup => ({
  id: row.id,
  name: row.name,
  type: row.type,
  code: row.code,
  siren: row.siren,
  siret: row.siret,
  chatEnabled: row.chat_enabled,
  ...toGroupContact(row),
  ...timestamps(row),
});

function assertSuperAdmin(agent: AdminAgent): void {
  if (!agent.superAdmin) throw errors.superAdminOnly();
}

type CityGroupFields = Omit<AdminCityGroup, 'id' | 'createdAt' | 'updatedAt'>;

/** The record as the bundle would hold it must pass the bundle's rules: 400 naming the first faulty field. */
function columns(group: CityGroupFields, now: Date) {
  assertNoFault(cityGroupFaults(group));
  return {
    name: group.name.trim(),
    type: group.type.trim(),
    code: group.code.trim(),
    siren: group.siren,
    siret: group.siret,
    chat_enabled: group.chatEnabled,
    ...groupContactColumns(group),
    updated_at: now,
  };
}

/** `2 villes et 1 article de blog`: what a group holds, or null when it holds nothing that its deletion would lose. */
function holdingsOf(counts: Awaited<ReturnType<typeof repo.countCityGroupHoldings>>): string | null {
  return countedList([
    [counts.cities, 'ville', 'villes'],
    [counts.posts, 'article de blog', 'articles de blog'],
    [counts.sites, 'site', 'sites'],
    [counts.conversations, 'conversation', 'conversations'],
  ]);
}

export const cityGroupStore: AdminStore<CityGroupRow, AdminCityGroup, never, CreateCityGroupInput, CityGroupPatch> = {
  entity: 'cityGroup',
  notFound: errors.cityGroupNotFound,
  find: async (db, id, options) => groupFound(await repo.findCityGroup(db, id, options)),
  list: (db, _parent, page, scope) => repo.listCityGroups(db, page, scope),
  show: async (_db, rows) => rows.map(toAdminCityGroup),
  insert(trx, { agent, now }, input) {
    assertSuperAdmin(agent);
    const fields = { siret: null, chatEnabled: false, contactPhone: null, contactEmail: null, contactHours: null, contactAddress: null, ...input };
    return repo.insertCityGroup(trx, randomUUID(), columns(fields, now), now);
  },
  update(trx, { agent, subject, now }, patch) {
    assertSuperAdmin(agent);
    return repo.updateCityGroup(trx, subject.row.id, columns({ ...subject.record, ...patch }, now));
  },
  async remove(trx, { agent, subject }) {
    assertSuperAdmin(agent);
    const holdings = holdingsOf(await repo.countCityGroupHoldings(trx, subject.row.id));
    if (holdings) throw errors.cityGroupNotEmpty(holdings);
    await repo.deleteCityGroup(trx, subject.row.id);
  },
};
