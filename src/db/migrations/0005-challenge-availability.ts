import { sql, type Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';
import * as completeChallenge from './0002-complete-challenge.ts';
import * as completeChallenges from './0003-complete-challenges.ts';

/**
 * The challenge availability rule, written once: a challenge is available when it is enabled, its city is ACTIF
 * and the moment lies within [start_date, end_date], a null bound open. `challenge_availability` says which of
 * 'open', 'not-started', 'ended' or 'hidden' (disabled, or its city NON_ACTIF: the public never sees it) a
 * challenge is, `challenge_available` whether it is open. The list read (src/domain/challenges.ts) and both
 * completion functions use them; complete_challenge answers the availability, from which a refusal is explained.
 *
 * Both are one SQL expression, IMMUTABLE and not STRICT, so that the planner inlines them into the statements that
 * call them: no function call per row, the same indexes as the conditions written out, on PGlite as on PostgreSQL
 * (test/db/challenge-availability.test.ts checks it). The list read calls `challenge_available` in its WHERE rather
 * than through a set-returning function: inlining one costs a parse of its whole SELECT at every planning, about
 * 0.07 ms more for each read on PostgreSQL 15.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE FUNCTION challenge_availability(
      p_enabled boolean, p_city_status text, p_start timestamptz, p_end timestamptz, p_at timestamptz
    ) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
      SELECT CASE
        WHEN p_enabled AND p_city_status = 'ACTIF' THEN
          CASE WHEN p_start > p_at THEN 'not-started' WHEN p_end < p_at THEN 'ended' ELSE 'open' END
        ELSE 'hidden'
      END
    $fn$;

    CREATE FUNCTION challenge_available(
      p_enabled boolean, p_city_status text, p_start timestamptz, p_end timestamptz, p_at timestamptz
    ) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
      SELECT challenge_availability(p_enabled, p_city_status, p_start, p_end, p_at) = 'open'
    $fn$
  `);
  // Function bodies hold semicolons: each is sent as one statement. complete_challenge gains a column (its
  // availability), so it is dropped and created again; the columns it had stay, in their order, so that an instance
  // still running the previous code during a deploy reads its answer as before.
  await sql.raw('DROP FUNCTION complete_challenge(uuid, text, uuid, double precision, timestamptz)').execute(db);
  await sql.raw(COMPLETE_CHALLENGE).execute(db);
  await sql.raw(COMPLETE_CHALLENGES).execute(db);
}

/**
 * complete_challenge of migration 0002, its conditions on the challenge now `challenge_availability`, which it
 * also answers: the caller explains a refusal from it instead of judging the dates again.
 */
const COMPLETE_CHALLENGE = `
  CREATE FUNCTION complete_challenge(p_id uuid, p_device text, p_challenge uuid, p_score double precision, p_now timestamptz)
  RETURNS TABLE (
    id uuid, name text, description text, enabled boolean, start_date timestamptz, end_date timestamptz,
    city_status text, city_time_zone text, required_challenge_id uuid, required_name text, required_completed boolean,
    badge_id uuid, badge_name text, badge_description text, badge_icon text, badge_image_url text,
    saved_id uuid, saved_score double precision, saved_completed_at timestamptz,
    stored_id uuid, stored_score double precision, stored_completed_at timestamptz,
    availability text
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
             b.icon AS badge_icon, b.image_url AS badge_image_url,
             challenge_availability(c.enabled, city.status, c.start_date, c.end_date, p_now) AS availability
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
      WHERE target.availability = 'open' AND (target.required_challenge_id IS NULL OR target.required_completed)
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
           stored.id, stored.score, stored.completed_at,
           target.availability
    FROM target
    LEFT JOIN saved ON true
    LEFT JOIN challenge_completion stored ON stored.device_id = p_device AND stored.challenge_id = target.id;
  END
  $fn$
`;

/** complete_challenges of migration 0003, same signature and result, its conditions on the challenge now `challenge_available`. */
const COMPLETE_CHALLENGES = `
  CREATE OR REPLACE FUNCTION complete_challenges(p_ids uuid[], p_devices text[], p_challenges uuid[], p_scores double precision[], p_nows timestamptz[])
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
      WHERE challenge_available(c.enabled, city.status, c.start_date, c.end_date, a.at)
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
`;

/** Back to the functions of migrations 0002 and 0003, then without the rule. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('DROP FUNCTION IF EXISTS complete_challenge(uuid, text, uuid, double precision, timestamptz)').execute(db);
  await completeChallenge.up(db);
  await sql
    .raw('DROP FUNCTION IF EXISTS complete_challenges(uuid[], text[], uuid[], double precision[], timestamptz[])')
    .execute(db);
  await completeChallenges.up(db);
  await runStatements(db, `
    DROP FUNCTION IF EXISTS challenge_available(boolean, text, timestamptz, timestamptz, timestamptz);
    DROP FUNCTION IF EXISTS challenge_availability(boolean, text, timestamptz, timestamptz, timestamptz)
  `);
}
