import { sql, type Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Residents' requests (docs/api.md, resident requests): a missed bin, a broken or stolen one, a full container, illegal
 * dumping, a bulky-waste booking.
 *
 * - `request_type`: a city group's catalogue. Each of `place`, `position`, `waste_type`, `photo`, `date` and
 *   `recycling_point` says whether a request of the type must (`REQUIRED`), may (`OPTIONAL`) or must not (`NONE`) name
 *   it; `fields` are the type's extra questions. A type is never deleted once a request uses it (`active` false hides
 *   it instead). Every group gets the default catalogue when it is created, whatever creates it (the admin API, the
 *   import bundle, the demo data): a trigger runs `seed_request_types`, also run here for the groups that exist.
 * - `resident_request`: one request. Its `reference` counts up per group and year (`request_counter`). No IP is
 *   stored. `due_at`: when it becomes overdue (created plus its type's target; a type's new target moves its open
 *   requests'). `duplicate_key` is set for a missed collection (place, waste type, day); the partial unique index lets
 *   one such request be open at a time, so that two devices reporting it at the same instant make one request.
 *   `erased_at`: when retention erased what identifies the requester (e-mail, description, attributes, position,
 *   address, photos).
 * - `request_count`: requests per group and status, kept by a trigger: the staff's queue's total without a count.
 * - `request_follower`: the devices that see a request: its author, and a device whose report of the same missed
 *   collection joined it.
 * - `request_update`: its history: status changes and public replies (what the requester sees), internal notes.
 * - `request_photo`: photos, re-encoded without metadata, held in the database so that a request and its photos are
 *   written, and erased, together; `request_id` null until a request takes it (deleted after 24 hours otherwise).
 * - `request_mail`: the e-mails owed to a requester (the receipt, one per public update), sent and retried by the
 *   requests' worker; the unique keys make each one once. `resident_request.origin` is where its links start;
 *   `mail_stopped_at` when the requester followed the unsubscribe link.
 * - `mailbox_day`: e-mails sent per mailbox (a SHA-256 of the address without its `+tag` and case, never the address)
 *   and day, counted up atomically so that no instance passes the daily cap.
 */

const OPEN = `('RECUE', 'EN_COURS', 'PLANIFIEE')`;
const REQUIREMENT = `IN ('NONE', 'OPTIONAL', 'REQUIRED')`;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE request_type (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      city_group_id uuid NOT NULL REFERENCES city_group (id) ON DELETE CASCADE,
      code text NOT NULL CHECK (code ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length(code) <= 64),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
      description text CHECK (char_length(description) <= 500),
      category text NOT NULL CHECK (category IN ('COLLECTE', 'BAC', 'POINT_APPORT', 'PROPRETE', 'ENCOMBRANTS', 'AUTRE')),
      place text NOT NULL CHECK (place ${REQUIREMENT}),
      position text NOT NULL CHECK (position ${REQUIREMENT}),
      waste_type text NOT NULL CHECK (waste_type ${REQUIREMENT}),
      photo text NOT NULL CHECK (photo ${REQUIREMENT}),
      date text NOT NULL CHECK (date ${REQUIREMENT}),
      recycling_point text NOT NULL CHECK (recycling_point ${REQUIREMENT}),
      fields jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(fields) = 'array'),
      target_hours integer NOT NULL CHECK (target_hours BETWEEN 1 AND 8760),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (city_group_id, code)
    );
    CREATE TABLE request_counter (
      city_group_id uuid NOT NULL REFERENCES city_group (id) ON DELETE CASCADE,
      year integer NOT NULL,
      last integer NOT NULL,
      PRIMARY KEY (city_group_id, year)
    );
    CREATE TABLE resident_request (
      id uuid PRIMARY KEY,
      city_group_id uuid NOT NULL REFERENCES city_group (id) ON DELETE CASCADE,
      city_id uuid NOT NULL REFERENCES city (id) ON DELETE CASCADE,
      type_id uuid NOT NULL REFERENCES request_type (id),
      reference text NOT NULL CHECK (reference ~ '^[0-9]{4}-[0-9]{6,}$'),
      status text NOT NULL CHECK (status IN ('RECUE', 'EN_COURS', 'PLANIFIEE', 'RESOLUE', 'REJETEE', 'ANNULEE')),
      place_id uuid REFERENCES collection_place (id) ON DELETE SET NULL,
      waste_type_id uuid REFERENCES waste_type (id) ON DELETE SET NULL,
      date date,
      recycling_point_id uuid REFERENCES recycling_point (id) ON DELETE SET NULL,
      latitude double precision CHECK (latitude BETWEEN -90 AND 90),
      longitude double precision CHECK (longitude BETWEEN -180 AND 180),
      address text CHECK (char_length(address) <= 300),
      description text CHECK (char_length(description) <= 2000),
      email text CHECK (char_length(email) <= 254),
      attributes jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attributes) = 'object'),
      planned_for date,
      assigned_to uuid REFERENCES account (id) ON DELETE SET NULL,
      duplicate_key text,
      device_id text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      due_at timestamptz NOT NULL,
      closed_at timestamptz,
      erased_at timestamptz,
      origin text,
      mail_stopped_at timestamptz,
      UNIQUE (city_group_id, reference),
      CHECK ((latitude IS NULL) = (longitude IS NULL)),
      CHECK (status <> 'PLANIFIEE' OR planned_for IS NOT NULL),
      CHECK ((closed_at IS NULL) = (status IN ${OPEN}))
    );
    CREATE UNIQUE INDEX resident_request_open_duplicate_idx ON resident_request (duplicate_key)
      WHERE duplicate_key IS NOT NULL AND status IN ${OPEN};
    CREATE INDEX resident_request_queue_idx ON resident_request (city_group_id, created_at, id);
    CREATE INDEX resident_request_status_idx ON resident_request (city_group_id, status, created_at, id);
    CREATE INDEX resident_request_overdue_idx ON resident_request (city_group_id, due_at) WHERE status IN ${OPEN};
    CREATE INDEX resident_request_type_idx ON resident_request (type_id);
    CREATE INDEX resident_request_city_idx ON resident_request (city_id);
    CREATE INDEX resident_request_retention_idx ON resident_request (closed_at) WHERE closed_at IS NOT NULL AND erased_at IS NULL;
    CREATE TABLE request_count (
      city_group_id uuid NOT NULL REFERENCES city_group (id) ON DELETE CASCADE,
      status text NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (city_group_id, status)
    );
    CREATE TABLE request_follower (
      request_id uuid NOT NULL REFERENCES resident_request (id) ON DELETE CASCADE,
      device_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (request_id, device_id)
    );
    CREATE INDEX request_follower_device_idx ON request_follower (device_id, created_at DESC);
    CREATE TABLE request_update (
      id uuid PRIMARY KEY,
      request_id uuid NOT NULL REFERENCES resident_request (id) ON DELETE CASCADE,
      at timestamptz NOT NULL,
      kind text NOT NULL CHECK (kind IN ('STATUS', 'REPLY', 'NOTE')),
      status text CHECK (status IN ('RECUE', 'EN_COURS', 'PLANIFIEE', 'RESOLUE', 'REJETEE', 'ANNULEE')),
      message text CHECK (char_length(message) <= 2000),
      author_id uuid REFERENCES account (id) ON DELETE SET NULL,
      author_name text,
      CHECK ((kind = 'STATUS') = (status IS NOT NULL)),
      CHECK (kind = 'STATUS' OR message IS NOT NULL)
    );
    CREATE INDEX request_update_request_idx ON request_update (request_id, at, id);
    CREATE TABLE request_photo (
      id uuid PRIMARY KEY,
      request_id uuid REFERENCES resident_request (id) ON DELETE CASCADE,
      content_type text NOT NULL,
      width integer NOT NULL,
      height integer NOT NULL,
      bytes bytea NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX request_photo_request_idx ON request_photo (request_id);
    CREATE INDEX request_photo_unattached_idx ON request_photo (created_at) WHERE request_id IS NULL;
    CREATE TABLE request_mail (
      id uuid PRIMARY KEY,
      request_id uuid NOT NULL REFERENCES resident_request (id) ON DELETE CASCADE,
      update_id uuid UNIQUE REFERENCES request_update (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('RECEIPT', 'UPDATE')),
      status text NOT NULL CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED', 'SKIPPED')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      last_error text,
      CHECK ((kind = 'UPDATE') = (update_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX request_mail_receipt_idx ON request_mail (request_id) WHERE kind = 'RECEIPT';
    CREATE INDEX request_mail_due_idx ON request_mail (next_attempt_at) WHERE status IN ('PENDING', 'SENDING');
    CREATE INDEX request_mail_request_idx ON request_mail (request_id);
    CREATE TABLE mailbox_day (
      mailbox text NOT NULL,
      day date NOT NULL,
      sent integer NOT NULL CHECK (sent >= 0),
      PRIMARY KEY (mailbox, day)
    );
    ALTER TABLE account DROP CONSTRAINT account_permissions_check;
    ALTER TABLE account ADD CONSTRAINT account_permissions_check
      CHECK (permissions <@ ARRAY['CITIES', 'CHALLENGES', 'BLOG_POSTS', 'CMS', 'CHAT_CONVERSATIONS', 'USERS', 'REQUESTS']::text[])
  `);
  // One statement each (their bodies hold semicolons): sent as they are, not through runStatements.
  await sql.raw(SEED_FUNCTION).execute(db);
  await sql
    .raw(
      `CREATE FUNCTION seed_request_types_of_new_group() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN PERFORM seed_request_types(NEW.id); RETURN NEW; END
      $fn$`,
    )
    .execute(db);
  await sql.raw(COUNT_FUNCTION).execute(db);
  await runStatements(db, `
    CREATE TRIGGER resident_request_count_insert AFTER INSERT ON resident_request
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_resident_requests();
    CREATE TRIGGER resident_request_count_update AFTER UPDATE ON resident_request
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_resident_requests();
    CREATE TRIGGER resident_request_count_delete AFTER DELETE ON resident_request
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_resident_requests();
    CREATE TRIGGER city_group_request_types AFTER INSERT ON city_group
      FOR EACH ROW EXECUTE FUNCTION seed_request_types_of_new_group();
    SELECT seed_request_types(id) FROM city_group
  `);
}

/**
 * Keeps `request_count` (requests per group and status) as requests come, change status or go, so that the staff's
 * queue answers its total without counting tens of thousands of rows on every page. Once per statement, from its
 * transition tables: a batch of creations, or retention's erasure of thousands, moves each counter once. An update's
 * changes in one statement, in key order, so that two status changes the other way round never deadlock; an update
 * that changes no status moves nothing. (`n` has no CHECK: the proposed row of a decrement is checked before
 * ON CONFLICT turns it into an update.)
 */
const COUNT_FUNCTION = `
CREATE FUNCTION count_resident_requests() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO request_count AS c (city_group_id, status, n)
    SELECT city_group_id, status, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (city_group_id, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO request_count AS c (city_group_id, status, n)
    SELECT city_group_id, status, -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (city_group_id, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO request_count AS c (city_group_id, status, n)
    SELECT g, s, sum(d) FROM (
      SELECT city_group_id AS g, status AS s, 1 AS d FROM new_rows
      UNION ALL
      SELECT city_group_id, status, -1 FROM old_rows
    ) AS changes
    GROUP BY g, s HAVING sum(d) <> 0 ORDER BY g, s
    ON CONFLICT (city_group_id, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$fn$`;

/** The default catalogue, in French as residents read it; a group's agents edit their copy. */
export const SEED_FUNCTION = `
CREATE FUNCTION seed_request_types(p_group uuid) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO request_type
    (city_group_id, code, name, description, category, place, position, waste_type, photo, date, recycling_point, fields, target_hours)
  SELECT p_group, code, name, description, category, place, position, waste_type, photo, date, recycling_point, fields::jsonb, target_hours
  FROM (VALUES
    ('collecte-non-effectuee', 'Collecte non effectuée', 'Votre bac était sorti à temps mais n’a pas été vidé.', 'COLLECTE',
     'REQUIRED', 'NONE', 'REQUIRED', 'OPTIONAL', 'REQUIRED', 'NONE', '[]', 48),
    ('bac-endommage', 'Bac endommagé', 'Couvercle, roue ou cuve cassés : le bac doit être réparé ou remplacé.', 'BAC',
     'REQUIRED', 'NONE', 'OPTIONAL', 'OPTIONAL', 'NONE', 'NONE',
     '[{"code":"partie","label":"Partie abîmée","datatype":"singlevaluelist","required":false,"values":[{"key":"couvercle","name":"Couvercle"},{"key":"roues","name":"Roues"},{"key":"cuve","name":"Cuve"},{"key":"poignee","name":"Poignée"},{"key":"autre","name":"Autre"}]}]',
     120),
    ('bac-vole', 'Bac volé ou disparu', 'Votre bac a disparu après la collecte ou a été volé.', 'BAC',
     'REQUIRED', 'NONE', 'OPTIONAL', 'NONE', 'NONE', 'NONE', '[]', 120),
    ('demande-bac', 'Demande de bac', 'Un premier bac, un bac d’une autre taille ou un bac de plus.', 'BAC',
     'REQUIRED', 'NONE', 'OPTIONAL', 'NONE', 'NONE', 'NONE',
     '[{"code":"motif","label":"Motif de la demande","datatype":"singlevaluelist","required":true,"values":[{"key":"nouvel-arrivant","name":"Nouvel arrivant"},{"key":"changement-volume","name":"Changer de taille de bac"},{"key":"bac-supplementaire","name":"Bac supplémentaire"}]},{"code":"foyer","label":"Nombre de personnes au foyer","datatype":"number","required":false,"values":[]}]',
     240),
    ('point-apport-plein', 'Point d’apport plein', 'Une colonne ou un conteneur du point d’apport déborde.', 'POINT_APPORT',
     'NONE', 'OPTIONAL', 'OPTIONAL', 'OPTIONAL', 'NONE', 'REQUIRED', '[]', 24),
    ('depot-sauvage', 'Dépôt sauvage', 'Des déchets abandonnés sur la voie publique ou dans la nature.', 'PROPRETE',
     'NONE', 'REQUIRED', 'NONE', 'OPTIONAL', 'NONE', 'NONE', '[]', 72),
    ('autre', 'Autre demande', 'Une question ou un problème qui n’entre dans aucune autre catégorie.', 'AUTRE',
     'OPTIONAL', 'OPTIONAL', 'OPTIONAL', 'OPTIONAL', 'NONE', 'NONE', '[]', 120),
    ('encombrants', 'Enlèvement des encombrants', 'Un rendez-vous pour l’enlèvement de vos objets volumineux.', 'ENCOMBRANTS',
     'REQUIRED', 'NONE', 'NONE', 'OPTIONAL', 'NONE', 'NONE',
     '[{"code":"slotDate","label":"Jour d’enlèvement","datatype":"date","required":true,"values":[]},{"code":"items","label":"Objets déposés","datatype":"text","required":true,"values":[]}]',
     168)
  ) AS catalogue (code, name, description, category, place, position, waste_type, photo, date, recycling_point, fields, target_hours)
  ON CONFLICT (city_group_id, code) DO NOTHING
$fn$`;

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TRIGGER city_group_request_types ON city_group;
    DROP TRIGGER resident_request_count_insert ON resident_request;
    DROP TRIGGER resident_request_count_update ON resident_request;
    DROP TRIGGER resident_request_count_delete ON resident_request;
    DROP FUNCTION count_resident_requests();
    DROP FUNCTION seed_request_types_of_new_group();
    DROP FUNCTION seed_request_types(uuid);
    DROP TABLE mailbox_day;
    DROP TABLE request_mail;
    DROP TABLE request_photo;
    DROP TABLE request_update;
    DROP TABLE request_follower;
    DROP TABLE request_count;
    DROP TABLE resident_request;
    DROP TABLE request_counter;
    DROP TABLE request_type;
    UPDATE account SET permissions = array_remove(permissions, 'REQUESTS');
    ALTER TABLE account DROP CONSTRAINT account_permissions_check;
    ALTER TABLE account ADD CONSTRAINT account_permissions_check
      CHECK (permissions <@ ARRAY['CITIES', 'CHALLENGES', 'BLOG_POSTS', 'CMS', 'CHAT_CONVERSATIONS', 'USERS']::text[])
  `);
}
