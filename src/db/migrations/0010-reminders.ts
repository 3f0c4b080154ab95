import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Reminders and alerts (docs/api.md, reminders).
 *
 * - `reminder_setting`: the keys every instance must share and that nobody has to configure: the generated VAPID
 *   pair (when VAPID_* are unset) and the key that signs the e-mails' confirmation and unsubscribe links. Written
 *   once with ON CONFLICT DO NOTHING, so that instances starting together agree on the first writer's.
 * - `reminder_subscription`: one device's wish to hear about one place. A push subscription keeps the browser's
 *   endpoint and keys, an e-mail one its address (lowercased); one per place and endpoint or address.
 *   `planned_day` (YYYY-MM-DD, compared as text) is the last collection day the planner has looked at for it, so that each minute's run only reads
 *   the subscriptions whose evening has come and that it has not yet handled.
 *   `origin` is the origin the subscription was made from: links in messages sent later start with it when
 *   PUBLIC_BASE_URL is unset. The city and place cascade: a place removed by an import takes its subscriptions along.
 * - `reminder_delivery`: the delivery ledger and the job queue at once. One row per subscription and message
 *   (`kind` REMINDER and `key` the collection day, or ALERT and the change), unique, inserted before anything is
 *   sent: a second instance, a restart or a retry finds the row and never makes a second message. A worker claims a
 *   due row (FOR UPDATE SKIP LOCKED) by setting SENDING and pushing `run_after` to the end of its lease; a worker
 *   that dies after sending leaves it SENDING, and it is claimed again once the lease is over and sent with the
 *   same Topic / Message-ID (derived from the row's subscription and key).
 * - `reminder_place_calendar`: for each place with subscribers, its collections over the alert window as last seen
 *   (`occurrences`: `YYYY-MM-DD|wasteTypeId`), and the data version they were computed at. When the data version
 *   moves (an import, an admin write), the worker computes the window again and alerts the subscribers of what was
 *   added or removed (alerts.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE reminder_setting (
      name text PRIMARY KEY,
      value text NOT NULL
    );
    CREATE TABLE reminder_subscription (
      id uuid PRIMARY KEY,
      device_id text NOT NULL,
      city_id uuid NOT NULL REFERENCES city (id) ON DELETE CASCADE,
      place_id uuid NOT NULL REFERENCES collection_place (id) ON DELETE CASCADE,
      waste_type_ids jsonb NOT NULL DEFAULT '[]',
      time_of_day text NOT NULL CHECK (time_of_day ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      channel text NOT NULL CHECK (channel IN ('WEB_PUSH', 'EMAIL')),
      endpoint text,
      p256dh text,
      auth text,
      email text,
      status text NOT NULL CHECK (status IN ('ACTIVE', 'PENDING')),
      origin text NOT NULL,
      planned_day text CHECK (planned_day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((channel = 'WEB_PUSH') = (endpoint IS NOT NULL AND p256dh IS NOT NULL AND auth IS NOT NULL)),
      CHECK ((channel = 'EMAIL') = (email IS NOT NULL))
    );
    CREATE UNIQUE INDEX reminder_subscription_endpoint_idx ON reminder_subscription (place_id, endpoint) WHERE endpoint IS NOT NULL;
    CREATE UNIQUE INDEX reminder_subscription_email_idx ON reminder_subscription (place_id, email) WHERE email IS NOT NULL;
    CREATE INDEX reminder_subscription_device_idx ON reminder_subscription (device_id);
    CREATE INDEX reminder_subscription_city_idx ON reminder_subscription (city_id);
    CREATE INDEX reminder_subscription_place_idx ON reminder_subscription (place_id);
    CREATE INDEX reminder_subscription_due_idx ON reminder_subscription (time_of_day, id) WHERE status = 'ACTIVE';
    CREATE INDEX reminder_subscription_pending_idx ON reminder_subscription (created_at) WHERE status = 'PENDING';
    CREATE TABLE reminder_delivery (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      subscription_id uuid NOT NULL REFERENCES reminder_subscription (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('REMINDER', 'ALERT')),
      key text NOT NULL,
      status text NOT NULL CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED')),
      message jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      run_after timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      UNIQUE (subscription_id, kind, key)
    );
    CREATE INDEX reminder_delivery_due_idx ON reminder_delivery (run_after) WHERE status IN ('PENDING', 'SENDING');
    CREATE INDEX reminder_delivery_created_idx ON reminder_delivery (created_at);
    CREATE TABLE reminder_place_calendar (
      place_id uuid PRIMARY KEY REFERENCES collection_place (id) ON DELETE CASCADE,
      data_version bigint NOT NULL,
      from_day text NOT NULL,
      to_day text NOT NULL,
      occurrences jsonb NOT NULL
    )
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TABLE IF EXISTS reminder_place_calendar;
    DROP TABLE IF EXISTS reminder_delivery;
    DROP TABLE IF EXISTS reminder_subscription;
    DROP TABLE IF EXISTS reminder_setting
  `);
}
