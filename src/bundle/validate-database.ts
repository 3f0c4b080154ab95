import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { childPath } from './faults.ts';
import type { Bundle } from './schema.ts';

/** The checks of a bundle that need the database: references to stored rows, and ids that keep their parent. */

/** The tables whose rows belong to a parent; an id cannot move from one parent to another. */
export type ChildTable =
  | 'waste_type'
  | 'waste_type_detail'
  | 'collection_place'
  | 'collection_day'
  | 'collection_exception'
  | 'attached_location'
  | 'recycling_point'
  | 'quiz_question'
  | 'challenge'
  | 'badge'
  | 'serie'
  | 'page'
  | 'menu'
  | 'menu_item';

const PARENT: Record<ChildTable, { column: string; label: string }> = {
  waste_type: { column: 'city_id', label: 'la ville' },
  waste_type_detail: { column: 'waste_type_id', label: 'le type de déchet' },
  collection_place: { column: 'city_id', label: 'la ville' },
  collection_day: { column: 'place_id', label: 'le lieu de collecte' },
  collection_exception: { column: 'place_id', label: 'le lieu de collecte' },
  attached_location: { column: 'place_id', label: 'le lieu de collecte' },
  recycling_point: { column: 'city_id', label: 'la ville' },
  quiz_question: { column: 'city_id', label: 'la ville' },
  challenge: { column: 'city_id', label: 'la ville' },
  badge: { column: 'challenge_id', label: 'le défi' },
  serie: { column: 'challenge_id', label: 'le défi' },
  page: { column: 'site_id', label: 'le site' },
  menu: { column: 'site_id', label: 'le site' },
  menu_item: { column: 'menu_id', label: 'le menu' },
};

export interface Owned {
  id: string;
  parentId: string;
  path: string;
}

export interface Reference {
  id: string;
  path: string;
}

export async function checkAgainstDatabase(
  db: Kysely<DB>,
  bundle: Bundle,
  found: {
    groupRefs: Reference[];
    requirements: { challengeId: string; required: string; path: string }[];
    owned: Map<ChildTable, Owned[]>;
    slugs: string[];
  },
  fault: (path: string, message: string) => void,
): Promise<void> {
  // City groups: of the bundle, or already in the database.
  const bundleGroups = new Set((bundle.cityGroups ?? []).map((g) => g.id));
  const wanted = [...new Set(found.groupRefs.map((r) => r.id).filter((id) => !bundleGroups.has(id)))];
  const known = new Set(
    wanted.length === 0
      ? []
      : (await sql<{ id: string }>`SELECT id FROM city_group WHERE id = ANY(${wanted}::uuid[])`.execute(db)).rows.map((r) => r.id),
  );
  for (const ref of found.groupRefs) {
    if (!bundleGroups.has(ref.id) && !known.has(ref.id)) fault(ref.path, `ne désigne aucun groupe de villes du lot ni de la base (${ref.id})`);
  }

  // An id keeps its parent: moving a row to another city, site or menu would break the rows that point at it.
  for (const [table, entries] of found.owned) {
    const ids = entries.map((e) => e.id);
    const { column, label } = PARENT[table];
    const rows = (
      await sql<{ id: string; parent: string }>`
        SELECT id, ${sql.ref(column)} AS parent FROM ${sql.table(table)} WHERE id = ANY(${ids}::uuid[])
      `.execute(db)
    ).rows;
    const parentOf = new Map(rows.map((r) => [r.id, r.parent]));
    for (const entry of entries) {
      const parent = parentOf.get(entry.id);
      if (parent !== undefined && parent !== entry.parentId) {
        fault(childPath(entry.path, 'id'), `l’identifiant ${entry.id} appartient déjà à ${label} ${parent} dans la base ; un élément ne change pas de parent`);
      }
    }
  }

  // Site slugs are unique across the whole database.
  if (found.slugs.length > 0) {
    const bundleSites = new Map((bundle.sites ?? []).map((s, i) => [s.id, i]));
    const rows = (await sql<{ id: string; slug: string }>`SELECT id, slug FROM site WHERE slug = ANY(${found.slugs}::text[])`.execute(db)).rows;
    for (const row of rows) {
      if (bundleSites.has(row.id)) continue;
      const i = (bundle.sites ?? []).findIndex((s) => s.slug === row.slug);
      fault(`sites[${i}].slug`, `le slug « ${row.slug} » est déjà celui du site ${row.id} dans la base`);
    }
  }

  await checkRequirements(db, bundle, found.requirements, fault);
}

/**
 * requiredChallengeId must name a challenge of the bundle or of the database, and the requirements
 * must not loop. A challenge of an imported city that the bundle leaves out is removed (or disabled)
 * by the import, so it cannot be required.
 */
async function checkRequirements(
  db: Kysely<DB>,
  bundle: Bundle,
  requirements: { challengeId: string; required: string; path: string }[],
  fault: (path: string, message: string) => void,
): Promise<void> {
  if (requirements.length === 0) return;
  const next = new Map<string, string | null>();
  for (const city of bundle.cities ?? []) {
    for (const c of city.challenges ?? []) next.set(c.id, c.requiredChallengeId ?? null);
  }
  const importedCities = new Set((bundle.cities ?? []).map((c) => c.id));
  const stored = await db.selectFrom('challenge').select(['id', 'city_id', 'required_challenge_id']).execute();
  for (const row of stored) {
    if (next.has(row.id) || importedCities.has(row.city_id)) continue;
    next.set(row.id, row.required_challenge_id);
  }
  for (const r of requirements) {
    if (r.required === r.challengeId) {
      fault(r.path, 'un défi ne peut pas se requérir lui-même');
      continue;
    }
    if (!next.has(r.required)) {
      fault(r.path, `ne désigne aucun défi du lot ni de la base (${r.required})`);
      continue;
    }
    const chain = [r.challengeId];
    const visited = new Set(chain);
    let current: string | null | undefined = r.required;
    while (current != null && !visited.has(current)) {
      visited.add(current);
      chain.push(current);
      current = next.get(current);
    }
    if (current === r.challengeId) fault(r.path, `forme un cycle de défis requis (${[...chain, current].join(' → ')})`);
  }
}
