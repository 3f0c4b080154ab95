import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * A challenge's pass mark: its badge is earned only by a best score at or above it (60 % unless set). A city
 * group's contact block (phone, e-mail, hours, postal address), shown to citizens where the chat assistant is not
 * offered and after a hand-off to an agent. Every contact field is optional: a group may publish none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE challenge ADD COLUMN passing_score integer NOT NULL DEFAULT 60 CHECK (passing_score BETWEEN 0 AND 100);
    ALTER TABLE city_group ADD COLUMN contact_phone text;
    ALTER TABLE city_group ADD COLUMN contact_email text;
    ALTER TABLE city_group ADD COLUMN contact_hours text;
    ALTER TABLE city_group ADD COLUMN contact_address text
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE challenge DROP COLUMN IF EXISTS passing_score;
    ALTER TABLE city_group DROP COLUMN IF EXISTS contact_phone;
    ALTER TABLE city_group DROP COLUMN IF EXISTS contact_email;
    ALTER TABLE city_group DROP COLUMN IF EXISTS contact_hours;
    ALTER TABLE city_group DROP COLUMN IF EXISTS contact_address
  `);
}
