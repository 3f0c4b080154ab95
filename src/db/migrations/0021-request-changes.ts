import { sql, type Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Requests, live (docs/api.md, resident requests): every insert or update of a request takes the next number of one
 * sequence, as conversations do (migration 0013), so that each instance can ask "what changed after n?" with one
 * indexed query and tell the staff's queues and the residents' screens. A status change, an assignment, a reply or a
 * note all update their request's row, so they all move it.
 *
 * The trigger names the sequence through its table's schema: tests run each in a schema of their own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE SEQUENCE request_change_seq;
    ALTER TABLE resident_request ADD COLUMN change_seq bigint NOT NULL DEFAULT nextval('request_change_seq');
    CREATE INDEX resident_request_change_idx ON resident_request (change_seq)
  `);
  await sql
    .raw(
      `CREATE FUNCTION request_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        NEW.change_seq := nextval(format('%I.request_change_seq', TG_TABLE_SCHEMA));
        RETURN NEW;
      END
      $fn$`,
    )
    .execute(db);
  await sql.raw('CREATE TRIGGER request_changed BEFORE UPDATE ON resident_request FOR EACH ROW EXECUTE FUNCTION request_changed()').execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TRIGGER IF EXISTS request_changed ON resident_request;
    DROP FUNCTION IF EXISTS request_changed();
    ALTER TABLE resident_request DROP COLUMN IF EXISTS change_seq;
    DROP SEQUENCE IF EXISTS request_change_seq
  `);
}
