import type { Insertable } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * The tables a bundle fills and how they hang together: which rows belong to a parent row (validation checks that an
 * id keeps its parent, the import deletes the children a bundle no longer lists), which are links between two rows,
 * and in what order they are written.
 */

/** The tables whose rows belong to a parent: the column naming it and the parent's table. */
export const CHILD_TABLES = {
  canned_reply: { parentColumn: 'city_group_id', parent: 'city_group' },
  faq: { parentColumn: 'city_group_id', parent: 'city_group' },
  waste_type: { parentColumn: 'city_id', parent: 'city' },
  waste_type_detail: { parentColumn: 'waste_type_id', parent: 'waste_type' },
  collection_place: { parentColumn: 'city_id', parent: 'city' },
  collection_day: { parentColumn: 'place_id', parent: 'collection_place' },
  collection_exception: { parentColumn: 'place_id', parent: 'collection_place' },
  attached_location: { parentColumn: 'place_id', parent: 'collection_place' },
  place_street: { parentColumn: 'place_id', parent: 'collection_place' },
  recycling_point: { parentColumn: 'city_id', parent: 'city' },
  quiz_question: { parentColumn: 'city_id', parent: 'city' },
  challenge: { parentColumn: 'city_id', parent: 'city' },
  badge: { parentColumn: 'challenge_id', parent: 'challenge' },
  serie: { parentColumn: 'challenge_id', parent: 'challenge' },
  page: { parentColumn: 'site_id', parent: 'site' },
  menu: { parentColumn: 'site_id', parent: 'site' },
  menu_item: { parentColumn: 'menu_id', parent: 'menu' },
} as const;

export type ChildTable = keyof typeof CHILD_TABLES;

/**
 * Child tables whose list a bundle may leave out (absent or null) to leave the stored rows alone, where every other
 * list left out means "none": rows that agents write in the console and that bundles written before they were exported
 * do not carry (a group's canned replies and frequently asked questions). An empty list still deletes them all.
 */
export const KEPT_WHEN_LEFT_OUT = ['canned_reply', 'faq'] as const satisfies readonly ChildTable[];

export type KeptWhenLeftOut = (typeof KEPT_WHEN_LEFT_OUT)[number];

/**
 * Link tables (a serie's quiz questions, a recycling point's materials): a row is its key pair, plus what the pair
 * implies (a material's city); a pair exists or not, there is nothing to update. The owner is the row the bundle
 * nests the list in.
 */
export const LINK_TABLES: { [L in LinkTable]: LinkDescription<L> } = {
  recycling_point_material: { owner: 'recycling_point', key: ['recycling_point_id', 'waste_type_id'] },
  serie_question: { owner: 'serie', key: ['serie_id', 'quiz_question_id'] },
};

export type LinkTable = 'recycling_point_material' | 'serie_question';

interface LinkDescription<L extends LinkTable> {
  owner: ChildTable;
  /** The owner's column (the serie, the point), then the linked row's. */
  key: readonly [owner: keyof DB[L] & string, linked: keyof DB[L] & string];
}

/**
 * Lists a bundle gives whole for their owner, rows without ids of their own (a group's holiday rules, in order): the
 * rows of a listed owner that differ from the bundle's are replaced. Like KEPT_WHEN_LEFT_OUT, a list left out leaves
 * the stored rows alone.
 */
export const LIST_TABLES = {
  holiday_rule: { ownerColumn: 'city_group_id', key: ['city_group_id', 'position'] },
} as const;

export type ListTable = keyof typeof LIST_TABLES;

/** The tables whose rows carry created_at / updated_at, which a bundle may give or leave to the import. */
export const DATED_TABLES = ['city_group', 'canned_reply', 'faq', 'city', 'blog_post', 'site', 'page', 'media'] as const;

export type DatedTable = (typeof DATED_TABLES)[number];

export type BundleTable = ChildTable | LinkTable | DatedTable | ListTable;

/**
 * Every table of a bundle, parents before children: rows are written in this order. The children a bundle no longer
 * lists are deleted before, in the reverse order, so that a new row never collides with one it replaces (a page
 * slug, a badge's challenge).
 */
export const WRITE_ORDER: readonly BundleTable[] = [
  'city_group',
  'canned_reply',
  'faq',
  'city',
  'waste_type',
  'waste_type_detail',
  'holiday_rule',
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
  'blog_post',
  'site',
  'page',
  'menu',
  'menu_item',
  'media',
];

/** A row of a table as the import writes it, typed by the table (src/db/types.ts). */
export type Row<T extends BundleTable> = Insertable<DB[T]>;

/** A row of a table with created_at / updated_at, and whether the bundle gave them. */
export interface DatedRow<T extends DatedTable> {
  values: Row<T>;
  createdGiven: boolean;
  updatedGiven: boolean;
}

/**
 * The rows of each table. Challenges are sorted so that a required challenge comes before the challenges that
 * require it; menu items by depth, parents first.
 */
export type BundleRows = { [T in DatedTable]: DatedRow<T>[] } & { [T in Exclude<BundleTable, DatedTable>]: Row<T>[] } & {
  /**
   * For each table of KEPT_WHEN_LEFT_OUT and LIST_TABLES, the parents whose bundle entry lists its rows (the others'
   * are left alone).
   */
  listedParents: { [T in KeptWhenLeftOut | ListTable]: string[] };
};

/** An optional field of the bundle as a column: null when absent. */
export const orNull = <T>(value: T | null | undefined): T | null => (value === undefined ? null : value);

/** A dated row: a date the bundle leaves out is the import time `now`. */
export function datedRow<T extends DatedTable>(
  values: Row<T>,
  item: { createdAt?: string | null; updatedAt?: string | null },
  now: string,
): DatedRow<T> {
  return {
    values: { ...values, created_at: item.createdAt ?? now, updated_at: item.updatedAt ?? now },
    createdGiven: item.createdAt != null,
    updatedGiven: item.updatedAt != null,
  };
}
