import { sql, type Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * The console's live inbox (GET /chat/events): every insert or update of a conversation takes the next number of one
 * sequence, so that each instance can ask "what changed after n?" with one indexed query, whatever the clocks say
 * (the app's clock may be fixed or behind another instance's). A message, an assignment and a status change all
 * update their conversation's row, so they all move it.
 *
 * The trigger names the sequence through its table's schema: tests run each in a schema of their own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE SEQUENCE conversation_change_seq;
    ALTER TABLE conversation ADD COLUMN change_seq bigint NOT NULL DEFAULT nextval('conversation_change_seq');
    CREATE INDEX conversation_change_idx ON conversation (change_seq)
  `);
  await sql
    .raw(
      `CREATE FUNCTION conversation_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        NEW.change_seq := nextval(format('%I.conversation_change_seq', TG_TABLE_SCHEMA));
        RETURN NEW;
      END
      $fn$`,
    )
    .execute(db);
  await sql.raw('CREATE TRIGGER conversation_changed BEFORE UPDATE ON conversation FOR EACH ROW EXECUTE FUNCTION conversation_changed()').execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TRIGGER IF EXISTS conversation_changed ON conversation;
    DROP FUNCTION IF EXISTS conversation_changed();
    ALTER TABLE conversation DROP COLUMN IF EXISTS change_seq;
    DROP SEQUENCE IF EXISTS conversation_change_seq
  `);
}
