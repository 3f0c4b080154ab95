import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../db/types.ts';
import { inFaqOrder } from '../domain/faq-order.ts';
import { WRITE_ORDER, type BundleTable } from './tables.ts';

/**
 * The rows an export reads, table by table, limited to city groups (null: every row, those of no group included).
 * A city's children are selected through their city, a site's through their site: one query per table, whatever
 * the number of records.
 */

export type ExportRows = { [T in BundleTable]: Selectable<DB[T]>[] };

/** The groups an export covers; null for everything. */
export type ExportScope = readonly string[] | null;

export async function exportRows(db: Kysely<DB>, scope: ExportScope): Promise<ExportRows> {
  // An empty scope matches nothing; `IN ()` is not SQL, so it is a group id no row has.
  const groups = scope === null ? null : scope.length > 0 ? [...scope] : ['00000000-0000-0000-0000-000000000000'];
  const cities = db.selectFrom('city').select('id').$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!));
  const places = db.selectFrom('collection_place').select('id').where('city_id', 'in', cities);
  const wasteTypes = db.selectFrom('waste_type').select('id').where('city_id', 'in', cities);
  const points = db.selectFrom('recycling_point').select('id').where('city_id', 'in', cities);
  const challenges = db.selectFrom('challenge').select('id').where('city_id', 'in', cities);
  const series = db.selectFrom('serie').select('id').where('challenge_id', 'in', challenges);
  const sites = db.selectFrom('site').select('id').$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!));
  const menus = db.selectFrom('menu').select('id').where('site_id', 'in', sites);

  const read: { [T in BundleTable]: () => Promise<Selectable<DB[T]>[]> } = {
    city_group: () => db.selectFrom('city_group').selectAll().$if(groups !== null, (qb) => qb.where('id', 'in', groups!)).orderBy('id').execute(),
    canned_reply: () =>
      db.selectFrom('canned_reply').selectAll().$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!)).orderBy('id').execute(),
    // In the residents' order, which grouping by city group keeps (export.ts).
    faq: () => inFaqOrder(db.selectFrom('faq').selectAll().$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!))).execute(),
    holiday_rule: () =>
      db.selectFrom('holiday_rule').selectAll().$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!)).orderBy('city_group_id').orderBy('position').execute(),
    city: () => db.selectFrom('city').selectAll().where('id', 'in', cities).orderBy('id').execute(),
    waste_type: () => db.selectFrom('waste_type').selectAll().where('city_id', 'in', cities).orderBy('id').execute(),
    waste_type_detail: () => db.selectFrom('waste_type_detail').selectAll().where('waste_type_id', 'in', wasteTypes).orderBy('id').execute(),
    collection_place: () => db.selectFrom('collection_place').selectAll().where('city_id', 'in', cities).orderBy('id').execute(),
    collection_day: () => db.selectFrom('collection_day').selectAll().where('place_id', 'in', places).orderBy('id').execute(),
    collection_exception: () => db.selectFrom('collection_exception').selectAll().where('place_id', 'in', places).orderBy('id').execute(),
    attached_location: () => db.selectFrom('attached_location').selectAll().where('place_id', 'in', places).orderBy('id').execute(),
    place_street: () => db.selectFrom('place_street').selectAll().where('place_id', 'in', places).orderBy('id').execute(),
    recycling_point: () => db.selectFrom('recycling_point').selectAll().where('city_id', 'in', cities).orderBy('id').execute(),
    recycling_point_material: () =>
      db.selectFrom('recycling_point_material').selectAll().where('recycling_point_id', 'in', points).orderBy('waste_type_id').execute(),
    quiz_question: () => db.selectFrom('quiz_question').selectAll().where('city_id', 'in', cities).orderBy('id').execute(),
    challenge: () => db.selectFrom('challenge').selectAll().where('city_id', 'in', cities).orderBy('id').execute(),
    badge: () => db.selectFrom('badge').selectAll().where('challenge_id', 'in', challenges).orderBy('id').execute(),
    serie: () => db.selectFrom('serie').selectAll().where('challenge_id', 'in', challenges).orderBy('id').execute(),
    serie_question: () => db.selectFrom('serie_question').selectAll().where('serie_id', 'in', series).orderBy('quiz_question_id').execute(),
    blog_post: () => db.selectFrom('blog_post').selectAll().$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!)).orderBy('id').execute(),
    site: () => db.selectFrom('site').selectAll().where('id', 'in', sites).orderBy('id').execute(),
    page: () => db.selectFrom('page').selectAll().where('site_id', 'in', sites).orderBy('id').execute(),
    menu: () => db.selectFrom('menu').selectAll().where('site_id', 'in', sites).orderBy('id').execute(),
    menu_item: () => db.selectFrom('menu_item').selectAll().where('menu_id', 'in', menus).orderBy('id').execute(),
    // A media of no group (an older import) goes with a whole export only.
    media: () => db.selectFrom('media').selectAll().$if(groups !== null, (qb) => qb.where('city_group_id', 'in', groups!)).orderBy('id').execute(),
  };

  // Run on one snapshot (the caller's readSnapshot), so that a write meanwhile never splits a record from its children.
  const rows = {} as Record<BundleTable, unknown[]>;
  for (const table of WRITE_ORDER) rows[table] = await read[table]();
  return rows as ExportRows;
}
