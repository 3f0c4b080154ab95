import { sql, type Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * The whole data model of the seed spec. Plain SQL so that it reads like the schema it is;
 * it runs unchanged on PGlite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE city_group (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      type text NOT NULL,
      code text NOT NULL,
      siren text NOT NULL CHECK (siren ~ '^[0-9]+$'),
      chat_enabled boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE city (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      country text NOT NULL,
      population integer,
      status text NOT NULL CHECK (status IN ('ACTIF', 'NON_ACTIF')),
      time_zone text NOT NULL DEFAULT 'Europe/Paris',
      out_of_the_bins text,
      presentation_of_bins text,
      return_of_bins text,
      respect_of_calendar text,
      holidays text,
      city_group_id uuid REFERENCES city_group(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX city_city_group_idx ON city (city_group_id);
    CREATE INDEX city_status_idx ON city (status);

    CREATE TABLE waste_type (
      id uuid PRIMARY KEY,
      city_id uuid NOT NULL REFERENCES city(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      instructions text,
      color text,
      color_light text,
      icon text,
      image_url text,
      UNIQUE (city_id, id)
    );

    CREATE TABLE waste_type_detail (
      id uuid PRIMARY KEY,
      waste_type_id uuid NOT NULL REFERENCES waste_type(id) ON DELETE CASCADE,
      material text NOT NULL,
      description text,
      instructions text,
      image_url text
    );
    CREATE INDEX waste_type_detail_waste_type_idx ON waste_type_detail (waste_type_id);

    CREATE TABLE collection_place (
      id uuid PRIMARY KEY,
      city_id uuid NOT NULL REFERENCES city(id) ON DELETE CASCADE,
      name text NOT NULL
    );
    CREATE INDEX collection_place_city_idx ON collection_place (city_id);

    CREATE TABLE collection_day (
      id uuid PRIMARY KEY,
      place_id uuid NOT NULL REFERENCES collection_place(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (name IN ('lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche')),
      waste_type_id uuid NOT NULL REFERENCES waste_type(id) ON DELETE CASCADE,
      description text,
      biweekly boolean,
      start_date timestamptz,
      CHECK (biweekly IS NOT TRUE OR start_date IS NOT NULL)
    );
    CREATE INDEX collection_day_place_idx ON collection_day (place_id);
    CREATE INDEX collection_day_waste_type_idx ON collection_day (waste_type_id);

    CREATE TABLE collection_exception (
      id uuid PRIMARY KEY,
      place_id uuid NOT NULL REFERENCES collection_place(id) ON DELETE CASCADE,
      date_from timestamptz NOT NULL,
      date_to timestamptz,
      waste_type_id uuid NOT NULL REFERENCES waste_type(id) ON DELETE CASCADE,
      name text,
      description text,
      CHECK (date_to IS NULL OR date_to >= date_from)
    );
    CREATE INDEX collection_exception_place_idx ON collection_exception (place_id);
    CREATE INDEX collection_exception_waste_type_idx ON collection_exception (waste_type_id);

    CREATE TABLE attached_location (
      id uuid PRIMARY KEY,
      place_id uuid NOT NULL REFERENCES collection_place(id) ON DELETE CASCADE,
      name text NOT NULL,
      reference text NOT NULL,
      latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
      longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180)
    );
    CREATE INDEX attached_location_place_idx ON attached_location (place_id);

    CREATE TABLE recycling_point (
      id uuid PRIMARY KEY,
      city_id uuid NOT NULL REFERENCES city(id) ON DELETE CASCADE,
      name text NOT NULL,
      address text,
      latitude double precision CHECK (latitude BETWEEN -90 AND 90),
      longitude double precision CHECK (longitude BETWEEN -180 AND 180),
      opening_hours text
    );
    CREATE INDEX recycling_point_city_idx ON recycling_point (city_id);

    CREATE TABLE quiz_question (
      id uuid PRIMARY KEY,
      city_id uuid NOT NULL REFERENCES city(id) ON DELETE CASCADE,
      material text NOT NULL,
      question text NOT NULL,
      correct_waste_type_id uuid NOT NULL REFERENCES waste_type(id) ON DELETE CASCADE,
      "order" integer NOT NULL DEFAULT 0
    );
    CREATE INDEX quiz_question_city_idx ON quiz_question (city_id);
    CREATE INDEX quiz_question_waste_type_idx ON quiz_question (correct_waste_type_id);

    CREATE TABLE challenge (
      id uuid PRIMARY KEY,
      city_id uuid NOT NULL REFERENCES city(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      enabled boolean NOT NULL DEFAULT true,
      start_date timestamptz,
      end_date timestamptz,
      "order" integer NOT NULL DEFAULT 0,
      required_challenge_id uuid REFERENCES challenge(id) ON DELETE SET NULL,
      CHECK (required_challenge_id IS NULL OR required_challenge_id <> id)
    );
    CREATE INDEX challenge_city_idx ON challenge (city_id);
    CREATE INDEX challenge_required_idx ON challenge (required_challenge_id);

    CREATE TABLE badge (
      id uuid PRIMARY KEY,
      challenge_id uuid NOT NULL UNIQUE REFERENCES challenge(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      icon text,
      image_url text
    );

    CREATE TABLE serie (
      id uuid PRIMARY KEY,
      challenge_id uuid NOT NULL REFERENCES challenge(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      "order" integer NOT NULL DEFAULT 0
    );
    CREATE INDEX serie_challenge_idx ON serie (challenge_id);

    CREATE TABLE serie_question (
      serie_id uuid NOT NULL REFERENCES serie(id) ON DELETE CASCADE,
      quiz_question_id uuid NOT NULL REFERENCES quiz_question(id) ON DELETE CASCADE,
      PRIMARY KEY (serie_id, quiz_question_id)
    );
    CREATE INDEX serie_question_question_idx ON serie_question (quiz_question_id);

    -- One record per device and challenge: the database, not the service, guarantees it,
    -- so concurrent completions on several instances never make two.
    CREATE TABLE challenge_completion (
      id uuid PRIMARY KEY,
      device_id text NOT NULL,
      challenge_id uuid NOT NULL REFERENCES challenge(id) ON DELETE CASCADE,
      score double precision NOT NULL CHECK (score >= 0 AND score <= 100),
      completed_at timestamptz NOT NULL,
      UNIQUE (device_id, challenge_id)
    );
    CREATE INDEX challenge_completion_device_idx ON challenge_completion (device_id, completed_at DESC);

    CREATE TABLE blog_post (
      id uuid PRIMARY KEY,
      title text NOT NULL,
      content text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      published_at timestamptz,
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX blog_post_city_group_idx ON blog_post (city_group_id);
    CREATE INDEX blog_post_published_idx ON blog_post (published, published_at DESC);

    CREATE TABLE site (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      slug text NOT NULL UNIQUE,
      type text NOT NULL CHECK (type IN ('SITE', 'APP')),
      domain text,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      theme jsonb,
      city_group_id uuid REFERENCES city_group(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX site_type_idx ON site (type);
    CREATE INDEX site_domain_idx ON site (domain);

    CREATE TABLE page (
      id uuid PRIMARY KEY,
      site_id uuid NOT NULL REFERENCES site(id) ON DELETE CASCADE,
      title text NOT NULL,
      slug text NOT NULL,
      content text NOT NULL DEFAULT '',
      seo_title text,
      seo_description text,
      published_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (site_id, slug),
      UNIQUE (site_id, id)
    );
    CREATE INDEX page_site_published_idx ON page (site_id, published_at DESC);

    CREATE TABLE menu (
      id uuid PRIMARY KEY,
      site_id uuid NOT NULL REFERENCES site(id) ON DELETE CASCADE,
      name text NOT NULL,
      location text NOT NULL,
      UNIQUE (site_id, location)
    );

    CREATE TABLE menu_item (
      id uuid PRIMARY KEY,
      menu_id uuid NOT NULL REFERENCES menu(id) ON DELETE CASCADE,
      parent_id uuid REFERENCES menu_item(id) ON DELETE CASCADE,
      label text NOT NULL,
      link_type text NOT NULL CHECK (link_type IN ('PAGE', 'EXTERNAL', 'NONE')),
      page_id uuid REFERENCES page(id) ON DELETE SET NULL,
      external_url text,
      "order" integer NOT NULL DEFAULT 0
    );
    CREATE INDEX menu_item_menu_idx ON menu_item (menu_id);
    CREATE INDEX menu_item_page_idx ON menu_item (page_id);

    CREATE TABLE media (
      id uuid PRIMARY KEY,
      filename text NOT NULL,
      mime_type text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      width integer,
      height integer,
      alt text,
      public boolean NOT NULL DEFAULT false,
      sha256 text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE conversation (
      id uuid PRIMARY KEY,
      device_id text NOT NULL,
      city_id uuid NOT NULL REFERENCES city(id) ON DELETE CASCADE,
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      place_id uuid REFERENCES collection_place(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED')),
      assigned_to text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_message_at timestamptz
    );
    CREATE INDEX conversation_device_idx ON conversation (device_id, created_at DESC);
    CREATE INDEX conversation_inbox_idx ON conversation (city_group_id, status, last_message_at DESC);

    CREATE TABLE message (
      id uuid PRIMARY KEY,
      conversation_id uuid NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('user', 'assistant', 'agent')),
      content text NOT NULL,
      place_id uuid REFERENCES collection_place(id) ON DELETE SET NULL,
      author_id text,
      created_at timestamptz NOT NULL,
      seq bigserial NOT NULL
    );
    CREATE INDEX message_conversation_idx ON message (conversation_id, created_at, seq);

    CREATE TABLE ticket (
      id uuid PRIMARY KEY,
      conversation_id uuid NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
      subject text NOT NULL,
      description text NOT NULL,
      status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSED')),
      created_by text,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX ticket_conversation_idx ON ticket (conversation_id);

    CREATE TABLE llm_usage (
      id uuid PRIMARY KEY,
      conversation_id uuid REFERENCES conversation(id) ON DELETE SET NULL,
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      model text NOT NULL,
      prompt_tokens integer NOT NULL CHECK (prompt_tokens >= 0),
      completion_tokens integer NOT NULL CHECK (completion_tokens >= 0),
      created_at timestamptz NOT NULL
    );
    CREATE INDEX llm_usage_created_idx ON llm_usage (created_at, city_group_id);

    -- Bumped by every change to public data, so that each instance knows when its cached
    -- response bodies are stale.
    CREATE TABLE data_version (
      id integer PRIMARY KEY CHECK (id = 1),
      version integer NOT NULL,
      changed_at timestamptz NOT NULL
    );
    INSERT INTO data_version (id, version, changed_at) VALUES (1, 1, now());
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS data_version, llm_usage, ticket, message, conversation, media, menu_item, menu, page, site,
      blog_post, challenge_completion, serie_question, serie, badge, challenge, quiz_question, recycling_point,
      attached_location, collection_exception, collection_day, collection_place, waste_type_detail, waste_type,
      city, city_group CASCADE
  `.execute(db);
}
