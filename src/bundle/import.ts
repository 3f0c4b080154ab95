import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { BundleValidationError } from './faults.ts';
import { sha256Hex } from './media-file.ts';
import { bundleRows } from './rows.ts';
import type { ValidatedMedia } from './media-entry.ts';
import { validateBundle } from './validate.ts';
import type { BundleRows, BundleTable } from './tables.ts';
import { writeBundleRows, type BundleWrites } from './write.ts';
import { refreshStatistics } from '../db/statistics.ts';
import { bumpDataVersion, readDataVersion } from '../db/data-version.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';

export { BundleValidationError } from './faults.ts';
export type { RecordFault } from '../domain/rules/faults.ts';

export interface ImportOptions {
  /** The folder media paths are relative to (the bundle file's folder). */
  baseDir: string;
  /** Where media files are copied, as `<mediaDir>/<id>`. */
  mediaDir: string;
  /** Import time: createdAt / updatedAt of rows whose bundle entry gives none. */
  now: Date;
}

/** The entries of each kind that the summary counts, by the table that holds them, in the order it lists them. */
const COUNTED = {
  cityGroups: 'city_group',
  /** The console's canned replies of the groups that list them. */
  cannedReplies: 'canned_reply',
  /** The frequently asked questions of the groups that list them. */
  faq: 'faq',
  /** The holiday rules of the groups that list them. */
  holidayRules: 'holiday_rule',
  cities: 'city',
  wasteTypes: 'waste_type',
  wasteTypeDetails: 'waste_type_detail',
  collectionPlaces: 'collection_place',
  collectionDays: 'collection_day',
  collectionExceptions: 'collection_exception',
  attachedLocations: 'attached_location',
  streetRules: 'place_street',
  recyclingPoints: 'recycling_point',
  /** Waste types taken by recycling points, one per point and waste type. */
  recyclingPointMaterials: 'recycling_point_material',
  quizQuestions: 'quiz_question',
  challenges: 'challenge',
  badges: 'badge',
  series: 'serie',
  blogPosts: 'blog_post',
  sites: 'site',
  pages: 'page',
  menus: 'menu',
  menuItems: 'menu_item',
  media: 'media',
} as const satisfies Record<string, BundleTable>;

/** How many entries of each kind the bundle holds, and what the import changed. */
export interface ImportSummary {
  counts: Record<keyof typeof COUNTED, number>;
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
 * citizens completed, which are disabled (enabled = false) so that progress and badges survive. A group's canned
 * replies are made equal to its list when the bundle gives one, and left alone when it leaves the list out.
 * Top-level entries (groups, cities, blog posts, sites, media) missing from a bundle are left alone.
 * Media files are staged under temporary names and renamed into place only after the commit.
 * data_version is bumped in the same transaction when, and only when, something changed.
 */
export async function importBundle(database: Database, bundle: unknown, options: ImportOptions): Promise<ImportSummary> {
  const { bundle: valid, media } = await validateBundle(database.db, bundle, { baseDir: options.baseDir });
  const rows = bundleRows(valid, media, options.now);
  const staged = await stageMediaFiles(media, options.mediaDir);
  try {
    const { summary, byTable } = await database.db.transaction().execute((trx) => writeRows(trx, rows, options.now));
    await staged.commit();
    await refreshStatistics(database.db, byTable);
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

async function writeRows(trx: Kysely<DB>, rows: BundleRows, now: Date): Promise<{ summary: ImportSummary; byTable: BundleWrites['byTable'] }> {
  const { changed, deleted, disabled, byTable } = await writeBundleRows(trx, rows);
  // Other areas cache response bodies per data_version: move it when, and only when, public data changed.
  const touched = changed + deleted + disabled;
  const version = touched > 0 ? await bumpDataVersion(trx, now) : await readDataVersion(trx);
  const counts = Object.fromEntries(Object.entries(COUNTED).map(([kind, table]) => [kind, rows[table].length]));
  const summary = {
    counts: counts as ImportSummary['counts'],
    changedRows: changed,
    deletedRows: deleted,
    disabledChallenges: disabled,
    dataVersion: version,
  };
  return { summary, byTable };
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
