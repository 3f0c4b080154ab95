import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/** Every table the import writes, plus data_version. */
export const BUNDLE_TABLES = [
  'city_group',
  'holiday_rule',
  'city',
  'waste_type',
  'waste_type_detail',
  'collection_place',
  'collection_day',
  'collection_exception',
  'attached_location',
  'place_street',
  'recycling_point',
  'recycling_point_material',
  'quiz_question',
  'challenge',
  'badge',
  'serie',
  'serie_question',
  'challenge_completion',
  'blog_post',
  'site',
  'page',
  'menu',
  'menu_item',
  'media',
  'data_version',
] as const;

/** Every row of every bundle table, in a stable order: two equal dumps mean nothing changed. */
export async function dumpBundleTables(db: Kysely<DB>): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const table of BUNDLE_TABLES) {
    const order =
      table === 'serie_question'
        ? ['serie_id', 'quiz_question_id']
        : table === 'recycling_point_material'
          ? ['recycling_point_id', 'waste_type_id']
          : table === 'holiday_rule'
            ? ['city_group_id', 'position']
            : ['id'];
    dump[table] = await (db as Kysely<any>).selectFrom(table).selectAll().orderBy(order).execute();
  }
  return dump;
}

export async function countBundleTables(db: Kysely<DB>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of BUNDLE_TABLES) {
    const row = await (db as Kysely<any>)
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

export async function listDir(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch {
    return [];
  }
}
