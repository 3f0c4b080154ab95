import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.ts';

// The migrator's bookkeeping does not depend on the database: once, on the embedded one.
describe('migrations merged out of order', () => {
  it('applies a lower-numbered migration to a database that already ran a higher one', async (t) => {
    const pglite = await PGlite.create();
    const db = new Kysely<any>({ dialect: new PGliteDialect({ pglite }) });
    t.after(() => db.destroy());
    await migrateToLatest(db);
    // A database from before 0010 merged, that had already run 0013.
    await sql`DROP TABLE reminder_place_calendar, reminder_delivery, reminder_subscription, reminder_setting`.execute(db);
    await sql`DELETE FROM kysely_migration WHERE name = '0010-reminders'`.execute(db);
    assert.deepEqual(await migrateToLatest(db), ['0010-reminders']);
    await sql`SELECT 1 FROM reminder_subscription`.execute(db);
  });
});
