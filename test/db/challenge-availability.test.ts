import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import * as challengeAvailability from '../../src/db/migrations/0005-challenge-availability.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { insertChallenge, insertChallengeWorld } from '../helpers/challenge-fixtures.ts';

const AT = '2026-06-15T12:00:00.000Z';

/** Rows of complete_challenge for one attempt at AT, as the database answers them. */
async function completeAt(db: Kysely<DB>, challengeId: string, deviceId: string) {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT * FROM complete_challenge(${randomUUID()}, ${deviceId}, ${challengeId}, ${50}, ${AT}::timestamptz)
  `.execute(db);
  return rows;
}

for (const kind of testDatabaseKinds()) {
  describe(`challenge availability in SQL, migration 0005 (${kind})`, () => {
    it('says open, not-started, ended or hidden; a null bound is open and both bounds are inside', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const cases: [boolean, string, string | null, string | null, string][] = [
        [true, 'ACTIF', null, null, 'open'],
        [true, 'ACTIF', AT, AT, 'open'],
        [true, 'ACTIF', '2026-06-15T12:00:00.001Z', null, 'not-started'],
        [true, 'ACTIF', null, '2026-06-15T11:59:59.999Z', 'ended'],
        [true, 'ACTIF', '2026-07-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', 'not-started'],
        [false, 'ACTIF', null, null, 'hidden'],
        [false, 'ACTIF', '2026-07-01T00:00:00.000Z', null, 'hidden'],
        [true, 'NON_ACTIF', null, null, 'hidden'],
        [true, 'NON_ACTIF', null, '2026-06-01T00:00:00.000Z', 'hidden'],
      ];
      for (const [enabled, status, start, end, expected] of cases) {
        const { rows } = await sql<{ availability: string; available: boolean }>`
          SELECT challenge_availability(${enabled}, ${status}, ${start}::timestamptz, ${end}::timestamptz, ${AT}::timestamptz) AS availability,
                 challenge_available(${enabled}, ${status}, ${start}::timestamptz, ${end}::timestamptz, ${AT}::timestamptz) AS available
        `.execute(database.db);
        assert.deepEqual(rows[0], { availability: expected, available: expected === 'open' }, JSON.stringify([enabled, status, start, end]));
      }
    });

    it('is inlined by the planner: no function call per row, the challenge read still on its index', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      // Without sequential scans, an empty table's plan shows whether the condition leaves the index usable.
      const rows = await database.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const explained = await sql<{ 'QUERY PLAN': string }>`
          EXPLAIN (VERBOSE, COSTS OFF)
          SELECT c.id FROM challenge c JOIN city ON city.id = c.city_id
          WHERE c.city_id = ${randomUUID()}::uuid
            AND challenge_available(c.enabled, city.status, c.start_date, c.end_date, ${AT}::timestamptz)
        `.execute(trx);
        return explained.rows;
      });
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      assert.doesNotMatch(plan, /challenge_availab/, plan);
      assert.match(plan, /CASE WHEN/, plan);
      assert.match(plan, /challenge_city_idx/, plan);
    });

    it('goes down to the functions of migrations 0002 and 0003, and up again', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const db = database.db;
      const world = await insertChallengeWorld(db);
      const challenge = await insertChallenge(db, { cityId: world.cityId, name: 'Aller-retour' });

      await challengeAvailability.down(db);
      const before = await completeAt(db, challenge.id, 'device-down');
      assert.equal(before.length, 1);
      assert.equal('availability' in before[0]!, false);
      assert.ok(before[0]!.saved_id);
      await assert.rejects(sql`SELECT challenge_available(true, 'ACTIF', null, null, now())`.execute(db));

      await challengeAvailability.up(db);
      const after = await completeAt(db, challenge.id, 'device-up');
      assert.equal(after[0]!.availability, 'open');
      assert.ok(after[0]!.saved_id);
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM complete_challenges(
          ${[randomUUID()]}::uuid[], ${['device-batch']}::text[], ${[challenge.id]}::uuid[], ${[70]}::float8[], ${[AT]}::timestamptz[]
        )
      `.execute(db);
      assert.equal(rows[0]!.n, 1);
    });
  });
}
