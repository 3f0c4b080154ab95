import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { BundleValidationError } from './faults.ts';
import { sha256Hex } from './media-file.ts';
import { bundleRows, type BundleRows } from './rows.ts';
import type { ValidatedMedia } from './rules/media.ts';
import { validateBundle } from './validate.ts';
import {
  deleteStaleChildren,
  deleteStaleLinks,
  insertLinks,
  POINT_MATERIALS,
  SERIE_QUESTIONS,
  retireStaleChallenges,
  upsertDatedRows,
  upsertRows,
} from './write.ts';
import { bumpDataVersion, readDataVersion } from '../kernel/data-version.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';

export { BundleValidationError, type BundleFault } from './faults.ts';

export interface ImportOptions {
  /** The folder media paths are relative to (the bundle file's folder). */
  baseDir: string;
  /** Where media files are copied, as `<mediaDir>/<id>`. */
  mediaDir: string;
  /** Import time: createdAt / updatedAt of rows whose bundle entry gives none. */
  now: Date;
}

/** How many entries of each kind the bundle holds, and what the import changed. */
export interface ImportSummary {
  counts: {
    cityGroups: number;
    cities: number;
    wasteTypes: number;
    wasteTypeDetails: number;
    collectionPlaces: number;
    collectionDays: number;
    collectionExceptions: number;
    attachedLocations: number;
    recyclingPoints: number;
    /** Waste types taken by recycling points, one per point and waste type. */
    recyclingPointMaterials: number;
    quizQuestions: number;
    challenges: number;
    badges: number;
    series: number;
    blogPosts: number;
    sites: number;
    pages: number;
    menus: number;
    menuItems: number;
    media: number;
  };
  /** Rows inserted or updated (an identical row is neither). */
  changedRows: number;
  /** Children of imported cities, sites and menus that the bundle no longer lists. */
  deletedRows: number;
  /** Challenges left out of the bundle but kept, disabled, because citizens completed them. */
  disabledChallenges: number;
  /** data_version after the import; it moves only when something changed. */
  dataVersion: number;
}

/**
 * Imports a bundle: validates all of it first (throws BundleValidationError, nothing written), then
 * writes everything in one transaction. Idempotent: an id that exists is updated, only where its content
 * differs (so updated_at moves only then); the nested collections of each imported city, site and menu
 * are made equal to the bundle's: children it no longer lists are deleted, except challenges that
 * citizens completed, which are disabled (enabled = false) so that progress and badges survive.
 * Top-level entries (groups, cities, blog posts, sites, media) missing from a bundle are left alone.
 * Media files are staged under temporary names and renamed into place only after the commit.
 * data_version is bumped in the same transaction when, and only when, something changed.
 */
export async function importBundle(database: Database, bundle: unknown, options: ImportOptions): Promise<ImportSummary> {
  const { bundle: valid, media } = await validateBundle(database.db, bundle, { baseDir: options.baseDir });
  const rows = bundleRows(valid, media, options.now);
  const staged = await stageMediaFiles(media, options.mediaDir);
  try {
    const summary = await database.db.transaction().execute((trx) => writeRows(trx, rows, options.now));
    await staged.commit();
    // Fresh planner statistics: PGlite runs no autovacuum, and on PostgreSQL it comes late after a large import.
    // Without them the per-city reads hash-join whole tables instead of using their indexes.
    if (summary.changedRows + summary.deletedRows > 0) await sql`ANALYZE`.execute(database.db);
    return summary;
  } catch (err) {
    await staged.discard();
    throw err;
  }
}

/** Reads a bundle file (JSON) and imports it; media paths are relative to the file. */
export async function importBundleFile(
  database: Database,
  filePath: string,
  options: { mediaDir: string; now: Date },
): Promise<ImportSummary> {
  const text = await fs.readFile(filePath, 'utf8');
  let bundle: unknown;
  try {
    bundle = JSON.parse(text);
  } catch (err) {
    throw new BundleValidationError([{ path: '', message: bundleMessages.notJson((err as Error).message) }]);
  }
  return importBundle(database, bundle, { ...options, baseDir: path.dirname(path.resolve(filePath)) });
}

async function writeRows(trx: Kysely<any>, rows: BundleRows, now: Date): Promise<ImportSummary> {
  const ids = (list: { id?: unknown }[]) => list.map((r) => r.id as string);
  const datedIds = (list: { values: { id?: unknown } }[]) => list.map((r) => r.values.id as string);
  const cityIds = datedIds(rows.city);
  const siteIds = datedIds(rows.site);
  const wasteTypeIds = ids(rows.waste_type);
  const placeIds = ids(rows.collection_place);
  const challengeIds = ids(rows.challenge);
  const serieIds = ids(rows.serie);
  const menuIds = ids(rows.menu);

  // Stale children go first, so that a new row never collides with one it replaces (a page slug, a badge's challenge).
  let deleted = 0;
  deleted += await deleteStaleChildren(trx, 'menu_item', 'menu_id', menuIds, ids(rows.menu_item));
  deleted += await deleteStaleChildren(trx, 'menu', 'site_id', siteIds, menuIds);
  deleted += await deleteStaleChildren(trx, 'page', 'site_id', siteIds, datedIds(rows.page));
  deleted += await deleteStaleLinks(trx, SERIE_QUESTIONS, serieIds, rows.serie_question);
  deleted += await deleteStaleChildren(trx, 'serie', 'challenge_id', challengeIds, serieIds);
  deleted += await deleteStaleChildren(trx, 'badge', 'challenge_id', challengeIds, ids(rows.badge));
  const retired = await retireStaleChallenges(trx, cityIds, challengeIds);
  deleted += retired.deleted;
  deleted += await deleteStaleChildren(trx, 'quiz_question', 'city_id', cityIds, ids(rows.quiz_question));
  deleted += await deleteStaleLinks(trx, POINT_MATERIALS, ids(rows.recycling_point), rows.recycling_point_material);
  deleted += await deleteStaleChildren(trx, 'recycling_point', 'city_id', cityIds, ids(rows.recycling_point));
  deleted += await deleteStaleChildren(trx, 'attached_location', 'place_id', placeIds, ids(rows.attached_location));
  deleted += await deleteStaleChildren(trx, 'collection_exception', 'place_id', placeIds, ids(rows.collection_exception));
  deleted += await deleteStaleChildren(trx, 'collection_day', 'place_id', placeIds, ids(rows.collection_day));
  deleted += await deleteStaleChildren(trx, 'collection_place', 'city_id', cityIds, placeIds);
  deleted += await deleteStaleChildren(trx, 'waste_type_detail', 'waste_type_id', wasteTypeIds, ids(rows.waste_type_detail));
  deleted += await deleteStaleChildren(trx, 'waste_type', 'city_id', cityIds, wasteTypeIds);

  // Parents before children.
  let changed = 0;
  changed += await upsertDatedRows(trx, 'city_group', rows.city_group);
  changed += await upsertDatedRows(trx, 'city', rows.city);
  changed += await upsertRows(trx, 'waste_type', rows.waste_type);
  changed += await upsertRows(trx, 'waste_type_detail', rows.waste_type_detail);
  changed += await upsertRows(trx, 'collection_place', rows.collection_place);
  changed += await upsertRows(trx, 'collection_day', rows.collection_day);
  changed += await upsertRows(trx, 'collection_exception', rows.collection_exception);
  changed += await upsertRows(trx, 'attached_location', rows.attached_location);
  changed += await upsertRows(trx, 'recycling_point', rows.recycling_point);
  changed += await insertLinks(trx, POINT_MATERIALS, rows.recycling_point_material);
  changed += await upsertRows(trx, 'quiz_question', rows.quiz_question);
  changed += await upsertRows(trx, 'challenge', rows.challenge);
  changed += await upsertRows(trx, 'badge', rows.badge);
  changed += await upsertRows(trx, 'serie', rows.serie);
  changed += await insertLinks(trx, SERIE_QUESTIONS, rows.serie_question);
  changed += await upsertDatedRows(trx, 'blog_post', rows.blog_post);
  changed += await upsertDatedRows(trx, 'site', rows.site);
  changed += await upsertDatedRows(trx, 'page', rows.page);
  changed += await upsertRows(trx, 'menu', rows.menu);
  changed += await upsertRows(trx, 'menu_item', rows.menu_item);
  changed += await upsertDatedRows(trx, 'media', rows.media);

  // Other areas cache response bodies per data_version: move it when, and only when, public data changed.
  const touched = changed + deleted + retired.disabled;
  const version = touched > 0 ? await bumpDataVersion(trx, now) : await readDataVersion(trx);

  return {
    counts: {
      cityGroups: rows.city_group.length,
      cities: rows.city.length,
      wasteTypes: rows.waste_type.length,
      wasteTypeDetails: rows.waste_type_detail.length,
      collectionPlaces: rows.collection_place.length,
      collectionDays: rows.collection_day.length,
      collectionExceptions: rows.collection_exception.length,
      attachedLocations: rows.attached_location.length,
      recyclingPoints: rows.recycling_point.length,
      recyclingPointMaterials: rows.recycling_point_material.length,
      quizQuestions: rows.quiz_question.length,
      challenges: rows.challenge.length,
      badges: rows.badge.length,
      series: rows.serie.length,
      blogPosts: rows.blog_post.length,
      sites: rows.site.length,
      pages: rows.page.length,
      menus: rows.menu.length,
      menuItems: rows.menu_item.length,
      media: rows.media.length,
    },
    changedRows: changed,
    deletedRows: deleted,
    disabledChallenges: retired.disabled,
    dataVersion: version,
  };
}

interface StagedMedia {
  /** Moves the staged files into place (after the transaction committed). */
  commit(): Promise<void>;
  /** Removes the staged files (the transaction failed). */
  discard(): Promise<void>;
}

/**
 * Copies media files next to their final place under temporary names. A file already in place with
 * the same content is left alone. The bytes are hashed again while copying: a file changed since
 * validation is refused rather than stored under the wrong checksum.
 */
async function stageMediaFiles(media: ValidatedMedia[], mediaDir: string): Promise<StagedMedia> {
  const staged: { temp: string; final: string }[] = [];
  const discard = async () => {
    await Promise.all(staged.map((s) => fs.rm(s.temp, { force: true })));
  };
  try {
    if (media.length > 0) await fs.mkdir(mediaDir, { recursive: true });
    for (const file of media) {
      const final = path.join(mediaDir, file.id);
      if (await hasContent(final, file.sha256)) continue;
      const bytes = await fs.readFile(file.absolutePath);
      if (sha256Hex(bytes) !== file.sha256) {
        throw new Error(`The media file ${file.absolutePath} changed during the import; run it again.`);
      }
      const temp = path.join(mediaDir, `.${file.id}.${randomBytes(6).toString('hex')}.part`);
      staged.push({ temp, final });
      await fs.writeFile(temp, bytes);
    }
  } catch (err) {
    await discard();
    throw err;
  }
  return {
    async commit() {
      for (const s of staged) await fs.rename(s.temp, s.final);
    },
    discard,
  };
}

async function hasContent(file: string, sha256: string): Promise<boolean> {
  try {
    return sha256Hex(await fs.readFile(file)) === sha256;
  } catch {
    return false;
  }
}
