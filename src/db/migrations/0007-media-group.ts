import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * A media file belongs to a city group (docs/api.md, the admin API: an agent manages the media of its own groups, those of
 * another group answer 404). Nullable: media imported before, or from a bundle entry without `cityGroupId`, belong
 * to no group and are managed by super admins only. A deleted group leaves its files to the super admins rather
 * than deleting rows whose bytes would stay behind in MEDIA_DIR.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE media ADD COLUMN city_group_id uuid REFERENCES city_group(id) ON DELETE SET NULL;
    CREATE INDEX media_city_group_idx ON media (city_group_id)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP INDEX IF EXISTS media_city_group_idx;
    ALTER TABLE media DROP COLUMN IF EXISTS city_group_id
  `);
}
