import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Service notices (docs/api.md, collections that move and service notices) and reminders checked again when they are sent.
 *
 * - `service_notice`: what a city group tells its residents for a while (a strike, a closed road), over the whole
 *   group (`city_ids` and `place_ids` empty), some of its cities, or some places. The lists are arrays rather than
 *   link tables on purpose: a link table cascading with a deleted place would leave a notice meant for one street
 *   with no place at all, which reads as "the whole group"; an id in an array whose place is gone just matches
 *   nothing. `ends_at` null: in force until deleted; otherwise after `starts_at`. `notified_at` is when the worker
 *   put the notice in the delivery ledger (`notify` true, once `starts_at` has come): a notice is announced once, so
 *   an edit after that sends nothing more.
 * - `reminder_delivery`: kind `NOTICE` (key `NOTICE-<notice id>`, so that the unique key gives one message per
 *   subscription and notice), and status `SKIPPED` for a message the worker no longer sends because what it said
 *   stopped being true after it was planned (the collection was cancelled or moved, the notice deleted or ended);
 *   `last_error` says which.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE service_notice (
      id uuid PRIMARY KEY,
      city_group_id uuid NOT NULL REFERENCES city_group (id) ON DELETE CASCADE,
      city_ids uuid[] NOT NULL DEFAULT '{}',
      place_ids uuid[] NOT NULL DEFAULT '{}',
      title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
      body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 1000),
      severity text NOT NULL CHECK (severity IN ('INFO', 'WARNING')),
      starts_at timestamptz NOT NULL,
      ends_at timestamptz,
      notify boolean NOT NULL DEFAULT false,
      notified_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (ends_at IS NULL OR ends_at > starts_at)
    );
    CREATE INDEX service_notice_group_idx ON service_notice (city_group_id, starts_at DESC);
    CREATE INDEX service_notice_to_notify_idx ON service_notice (starts_at) WHERE notify AND notified_at IS NULL;
    ALTER TABLE reminder_delivery
      DROP CONSTRAINT reminder_delivery_kind_check,
      ADD CONSTRAINT reminder_delivery_kind_check CHECK (kind IN ('REMINDER', 'ALERT', 'NOTICE')),
      DROP CONSTRAINT reminder_delivery_status_check,
      ADD CONSTRAINT reminder_delivery_status_check CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED', 'SKIPPED'))
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DELETE FROM reminder_delivery WHERE kind = 'NOTICE';
    UPDATE reminder_delivery SET status = 'FAILED' WHERE status = 'SKIPPED';
    ALTER TABLE reminder_delivery
      DROP CONSTRAINT reminder_delivery_kind_check,
      ADD CONSTRAINT reminder_delivery_kind_check CHECK (kind IN ('REMINDER', 'ALERT')),
      DROP CONSTRAINT reminder_delivery_status_check,
      ADD CONSTRAINT reminder_delivery_status_check CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED'));
    DROP TABLE service_notice
  `);
}
