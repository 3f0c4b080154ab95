import { sql, type Kysely } from 'kysely';

/**
 * The completion of a challenge as one server-side function: the rules and the best-score upsert in one
 * statement whose plan PostgreSQL keeps per connection (plpgsql caches it), instead of parsing and planning a
 * large statement on every request. The caller explains a refusal from the columns it returns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One statement (its body holds semicolons): sent as it is, not through runStatements.
  await sql
    .raw(
      `
    CREATE FUNCTION complete_challenge(p_id uuid, p_device text, p_challenge uuid, p_score double precision, p_now timestamptz)
    RETURNS TABLE (
      id uuid, name text, description text, enabled boolean, start_date timestamptz, end_date timestamptz,
      city_status text, city_time_zone text, required_challenge_id uuid, required_name text, required_completed boolean,
      badge_id uuid, badge_name text, badge_description text, badge_icon text, badge_image_url text,
      saved_id uuid, saved_score double precision, saved_completed_at timestamptz,
      stored_id uuid, stored_score double precision, stored_completed_at timestamptz
    )
    LANGUAGE plpgsql AS $fn$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
      WITH target AS (
        SELECT c.id, c.name, c.description, c.enabled, c.start_date, c.end_date,
               city.status AS city_status, city.time_zone AS city_time_zone,
               c.required_challenge_id, req.name AS required_name,
               EXISTS (
                 SELECT 1 FROM challenge_completion done
                 WHERE done.challenge_id = c.required_challenge_id AND done.device_id = p_device
               ) AS required_completed,
               b.id AS badge_id, b.name AS badge_name, b.description AS badge_description,
               b.icon AS badge_icon, b.image_url AS badge_image_url
        FROM challenge c
        JOIN city ON city.id = c.city_id
        LEFT JOIN challenge req ON req.id = c.required_challenge_id
        LEFT JOIN badge b ON b.challenge_id = c.id
        WHERE c.id = p_challenge
      ),
      saved AS (
        INSERT INTO challenge_completion AS cc (id, device_id, challenge_id, score, completed_at)
        SELECT p_id, p_device, target.id, p_score, p_now
        FROM target
        WHERE target.enabled AND target.city_status = 'ACTIF'
          AND (target.start_date IS NULL OR target.start_date <= p_now)
          AND (target.end_date IS NULL OR target.end_date >= p_now)
          AND (target.required_challenge_id IS NULL OR target.required_completed)
        ON CONFLICT (device_id, challenge_id) DO UPDATE
          SET score = excluded.score, completed_at = excluded.completed_at
          WHERE cc.score < excluded.score
        RETURNING cc.id, cc.score, cc.completed_at
      )
      SELECT target.id, target.name, target.description, target.enabled, target.start_date, target.end_date,
             target.city_status, target.city_time_zone, target.required_challenge_id, target.required_name,
             target.required_completed, target.badge_id, target.badge_name, target.badge_description,
             target.badge_icon, target.badge_image_url,
             saved.id, saved.score, saved.completed_at,
             stored.id, stored.score, stored.completed_at
      FROM target
      LEFT JOIN saved ON true
      LEFT JOIN challenge_completion stored ON stored.device_id = p_device AND stored.challenge_id = target.id;
    END
    $fn$
    `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('DROP FUNCTION IF EXISTS complete_challenge(uuid, text, uuid, double precision, timestamptz)').execute(db);
}
