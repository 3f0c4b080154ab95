import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { childPath, under, type RecordFault } from '../domain/rules/faults.ts';
import { cityGroupReferenceFaults, holidayRuleFaults } from '../domain/rules/cities.ts';
import { requirementFaults } from '../challenges/challenge-rules.ts';
import type { Bundle, BundleChallenge, BundleCityGroup } from './schema.ts';
import { CHILD_TABLES, type ChildTable } from './tables.ts';

/**
 * The checks of a bundle that need the database: references to stored rows, and ids that keep their parent.
 * They run once the walk over the bundle (walk.ts) is done, and add their faults after its own.
 */

/** What the walk set aside for the database to confirm, each with the JSON path of its record. */
export interface DatabaseChecks {
  /** Records that name a city group: cities, blog posts, sites. */
  groupReferences: { record: { cityGroupId?: string | null }; path: string }[];
  /** Challenges that require another. */
  requirements: { record: Pick<BundleChallenge, 'id' | 'requiredChallengeId'>; path: string }[];
  /** Rows that belong to a parent, by table in the order the bundle first lists one. */
  owned: Map<ChildTable, Owned[]>;
  /** The site slugs of the bundle. */
  slugs: string[];
  /** The groups' holiday rules, which name the waste types of their cities. */
  holidayRules: { groupId: string; rules: NonNullable<BundleCityGroup['holidayRules']>; path: string }[];
}

export interface Owned {
  id: string;
  parentId: string;
  path: string;
}

export async function checkAgainstDatabase(db: Kysely<DB>, bundle: Bundle, found: DatabaseChecks, faults: RecordFault[]): Promise<void> {
  await checkGroupReferences(db, bundle, found.groupReferences, faults);
  await checkParents(db, found.owned, faults);
  await checkSiteSlugs(db, bundle, found.slugs, faults);
  await checkRequirements(db, bundle, found.requirements, faults);
  await checkHolidayRules(db, bundle, found.holidayRules, faults);
}

/**
 * A group's holiday rules name waste types of its cities once the import is done: the bundle's cities of the group,
 * and the stored ones the bundle does not hold (those it holds are replaced, or moved to another group).
 */
async function checkHolidayRules(db: Kysely<DB>, bundle: Bundle, lists: DatabaseChecks['holidayRules'], faults: RecordFault[]): Promise<void> {
  if (lists.length === 0) return;
  const groupIds = lists.map((l) => l.groupId);
  const bundleCities = bundle.cities ?? [];
  const wasteTypesOf = new Map<string, Set<string>>(groupIds.map((id) => [id, new Set()]));
  for (const city of bundleCities) {
    const ids = city.cityGroupId == null ? undefined : wasteTypesOf.get(city.cityGroupId);
    for (const w of city.wasteTypes ?? []) ids?.add(w.id);
  }
  const stored = await sql<{ id: string; group_id: string }>`
    SELECT w.id, c.city_group_id AS group_id FROM waste_type w JOIN city c ON c.id = w.city_id
    WHERE c.city_group_id = ANY(${groupIds}::uuid[]) AND c.id <> ALL(${bundleCities.map((c) => c.id)}::uuid[])
  `.execute(db);
  for (const row of stored.rows) wasteTypesOf.get(row.group_id)?.add(row.id);
  for (const { groupId, rules, path } of lists) {
    faults.push(...under(path, holidayRuleFaults(rules, { wasteTypeIds: wasteTypesOf.get(groupId)! })));
  }
}

/** City groups: of the bundle, or already in the database. */
async function checkGroupReferences(
  db: Kysely<DB>,
  bundle: Bundle,
  references: DatabaseChecks['groupReferences'],
  faults: RecordFault[],
): Promise<void> {
  const cityGroupIds = new Set((bundle.cityGroups ?? []).map((g) => g.id));
  const named = references.map((r) => r.record.cityGroupId);
  const wanted = [...new Set(named.filter((id): id is string => id != null && !cityGroupIds.has(id)))];
  if (wanted.length > 0) {
    const stored = await sql<{ id: string }>`SELECT id FROM city_group WHERE id = ANY(${wanted}::uuid[])`.execute(db);
    for (const row of stored.rows) cityGroupIds.add(row.id);
  }
  for (const { record, path } of references) faults.push(...under(path, cityGroupReferenceFaults(record, { cityGroupIds })));
}

/** An id keeps its parent: moving a row to another city, site or menu would break the rows that point at it. */
async function checkParents(db: Kysely<DB>, owned: DatabaseChecks['owned'], faults: RecordFault[]): Promise<void> {
  for (const [table, entries] of owned) {
    const { parentColumn, parent } = CHILD_TABLES[table];
    const ids = entries.map((e) => e.id);
    const rows = (
      await sql<{ id: string; parent: string }>`
        SELECT id, ${sql.ref(parentColumn)} AS parent FROM ${sql.table(table)} WHERE id = ANY(${ids}::uuid[])
      `.execute(db)
    ).rows;
    const parentOf = new Map(rows.map((r) => [r.id, r.parent]));
    for (const entry of entries) {
      const stored = parentOf.get(entry.id);
      if (stored !== undefined && stored !== entry.parentId) {
        faults.push({ path: childPath(entry.path, 'id'), message: bundleMessages.parentChanged(entry.id, parent, stored) });
      }
    }
  }
}

/** Site slugs are unique across the whole database. */
async function checkSiteSlugs(db: Kysely<DB>, bundle: Bundle, slugs: string[], faults: RecordFault[]): Promise<void> {
  if (slugs.length === 0) return;
  const sites = bundle.sites ?? [];
  const bundleSites = new Set(sites.map((s) => s.id));
  const rows = (await sql<{ id: string; slug: string }>`SELECT id, slug FROM site WHERE slug = ANY(${slugs}::text[])`.execute(db)).rows;
  for (const row of rows) {
    if (bundleSites.has(row.id)) continue;
    const i = sites.findIndex((s) => s.slug === row.slug);
    faults.push({ path: `sites[${i}].slug`, message: bundleMessages.slugTakenInDatabase(row.slug, row.id) });
  }
}

/**
 * requiredChallengeId must name a challenge of the bundle or of the database, and the requirements
 * must not loop. A challenge of an imported city that the bundle leaves out is removed (or disabled)
 * by the import, so it cannot be required.
 */
async function checkRequirements(
  db: Kysely<DB>,
  bundle: Bundle,
  requirements: DatabaseChecks['requirements'],
  faults: RecordFault[],
): Promise<void> {
  if (requirements.length === 0) return;
  const requiredOf = new Map<string, string | null>();
  for (const city of bundle.cities ?? []) {
    for (const c of city.challenges ?? []) requiredOf.set(c.id, c.requiredChallengeId ?? null);
  }
  const importedCities = new Set((bundle.cities ?? []).map((c) => c.id));
  const stored = await db.selectFrom('challenge').select(['id', 'city_id', 'required_challenge_id']).execute();
  for (const row of stored) {
    if (requiredOf.has(row.id) || importedCities.has(row.city_id)) continue;
    requiredOf.set(row.id, row.required_challenge_id);
  }
  for (const { record, path } of requirements) faults.push(...under(path, requirementFaults(record, { requiredOf })));
}
