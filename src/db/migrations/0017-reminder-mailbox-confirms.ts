import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * An e-mail address is no secret, so it can no longer be the key another device re-points: an
 * e-mail subscription is now one per place, address and device, and at most one per place and address is ACTIVE.
 * Another device asking for an address already subscribed at the place gets a PENDING subscription of its own; the
 * link sent to the address activates it and replaces the address's other subscriptions at the place
 * (src/reminders/repository.ts, confirmSubscription). Existing rows already satisfy both indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE UNIQUE INDEX reminder_subscription_email_device_idx ON reminder_subscription (place_id, email, device_id) WHERE email IS NOT NULL;
    CREATE UNIQUE INDEX reminder_subscription_email_active_idx ON reminder_subscription (place_id, email) WHERE email IS NOT NULL AND status = 'ACTIVE';
    DROP INDEX reminder_subscription_email_idx
  `);
}

/** Back to one subscription per place and address: the ACTIVE one, else the oldest request. */
export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DELETE FROM reminder_subscription s
      USING reminder_subscription kept
      WHERE s.email IS NOT NULL AND kept.place_id = s.place_id AND kept.email = s.email AND kept.id <> s.id
        AND s.status = 'PENDING' AND (kept.status = 'ACTIVE' OR (kept.created_at, kept.id) < (s.created_at, s.id));
    CREATE UNIQUE INDEX reminder_subscription_email_idx ON reminder_subscription (place_id, email) WHERE email IS NOT NULL;
    DROP INDEX IF EXISTS reminder_subscription_email_active_idx;
    DROP INDEX IF EXISTS reminder_subscription_email_device_idx
  `);
}
