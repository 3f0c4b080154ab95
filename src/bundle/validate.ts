import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { BundleValidationError } from './faults.ts';
import type { ValidatedMedia } from './media-entry.ts';
import type { Bundle } from './schema.ts';
import { schemaFaults } from './schema-faults.ts';
import { checkAgainstDatabase } from './validate-database.ts';
import { BundleWalk } from './walk.ts';

export interface ValidatedBundle {
  /** The bundle with every id in lowercase (the form PostgreSQL gives back). */
  bundle: Bundle;
  media: ValidatedMedia[];
}

/**
 * Checks a bundle completely before anything is written: its shape first (schema-faults.ts), then, once the shape
 * is right, one walk over it (walk.ts) that checks every id, each record by its entity's rules (the admin API's
 * too: src/domain/rules/ and the areas' `*-rules.ts`), the MDX of blog posts and the media files, and last what only
 * the database can confirm (validate-database.ts).
 * Throws a BundleValidationError listing every fault with its JSON path.
 */
export async function validateBundle(db: Kysely<DB>, input: unknown, options: { baseDir: string }): Promise<ValidatedBundle> {
  const shapeFaults = schemaFaults(input);
  if (shapeFaults.length > 0) throw new BundleValidationError(shapeFaults);

  const bundle = lowercaseIds(input) as Bundle;
  const walk = new BundleWalk(options.baseDir);
  const media = await walk.walk(bundle);
  await checkAgainstDatabase(db, bundle, walk.forDatabase, walk.faults);

  if (walk.faults.length > 0) throw new BundleValidationError(walk.faults);
  return { bundle, media };
}

/** Keys that hold ids; their values are compared and stored in lowercase. */
const ID_KEYS = new Set(['id', 'cityGroupId', 'wasteTypeId', 'correctWasteTypeId', 'requiredChallengeId', 'pageId']);
/** Keys that hold lists of ids. */
const ID_LIST_KEYS = new Set(['quizQuestionIds', 'materials']);
/** Free-form objects whose keys are not ours. */
const OPAQUE_KEYS = new Set(['settings', 'theme']);

function lowercaseIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowercaseIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (ID_KEYS.has(key) && typeof v === 'string') out[key] = v.toLowerCase();
    else if (ID_LIST_KEYS.has(key) && Array.isArray(v)) out[key] = v.map((s) => (s as string).toLowerCase());
    else if (OPAQUE_KEYS.has(key)) out[key] = v;
    else out[key] = lowercaseIds(v);
  }
  return out;
}
