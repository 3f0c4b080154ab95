import { sql, type Kysely } from 'kysely';

/**
 * Completions of several challenges, by several devices, in one statement: the write path's batch (see
 * src/challenges/completion-batch.ts). Each attempt is written only when the rules of complete_challenge
 * (migration 0002) allow it at its own moment, keeping the best score; the rows written come back with what the
 * answer needs of their challenge. Attempts that were not written (refused, or not better than the stored score)
 * do not come back: the caller replays them one by one through complete_challenge, which explains the refusal or
 * answers the stored record. The caller never puts the same (device, challenge) twice in one call.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
    CREATE FUNCTION complete_challenges(p_ids uuid[], p_devices text[], p_challenges uuid[], p_scores double precision[], p_nows timestamptz[])
    RETURNS TABLE (
      id uuid, device_id text, challenge_id uuid, score double precision, completed_at timestamptz,
      name text, description text,
      badge_id uuid, badge_name text, badge_description text, badge_icon text, badge_image_url text
    )
    LANGUAGE plpgsql AS $fn$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
      WITH attempt AS (
        SELECT * FROM unnest(p_ids, p_devices, p_challenges, p_scores, p_nows) AS a(id, device_id, challenge_id, score, at)
      ),
      saved AS (
        INSERT INTO challenge_completion AS cc (id, device_id, challenge_id, score, completed_at)
        SELECT a.id, a.device_id, a.challenge_id, a.score, a.at
        FROM attempt a
        JOIN challenge c ON c.id = a.challenge_id
        JOIN city ON city.id = c.city_id
        WHERE c.enabled AND city.status = 'ACTIF'
          AND (c.start_date IS NULL OR c.start_date <= a.at)
          AND (c.end_date IS NULL OR c.end_date >= a.at)
          AND (c.required_challenge_id IS NULL OR EXISTS (
            SELECT 1 FROM challenge_completion done
            WHERE done.challenge_id = c.required_challenge_id AND done.device_id = a.device_id
          ))
        -- One order for every batch, so that two batches touching the same records cannot deadlock.
        ORDER BY a.device_id, a.challenge_id
        ON CONFLICT (device_id, challenge_id) DO UPDATE
          SET score = excluded.score, completed_at = excluded.completed_at
          WHERE cc.score < excluded.score
        RETURNING cc.id, cc.device_id, cc.challenge_id, cc.score, cc.completed_at
      )
      SELECT saved.id, saved.device_id, saved.challenge_id, saved.score, saved.completed_at,
             c.name, c.description, b.id, b.name, b.description, b.icon, b.image_url
      FROM saved
      JOIN challenge c ON c.id = saved.challenge_id
      LEFT JOIN badge b ON b.challenge_id = c.id;
    END
    $fn$
    `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw('DROP FUNCTION IF EXISTS complete_challenges(uuid[], text[], uuid[], double precision[], timestamptz[])')
    .execute(db);
}
