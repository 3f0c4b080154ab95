import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Agents' accounts and the back office's bookkeeping (docs/api.md, the admin API).
 *
 * - `account`: e-mails are stored lower-cased (the CHECK says so), so that the unique index is case-insensitive
 *   without every query having to remember lower(). Only an argon2id hash of the password is kept.
 * - `account_city_group`: the groups an account works for, as a join table rather than a uuid[] column, so that
 *   a group that does not exist cannot be named and a deleted group leaves no dangling id behind.
 * - `refresh_session`: one row per login (a session family). It holds the SHA-256 of the current refresh token
 *   only; each refresh replaces it, so any older token of the family no longer matches and is recognised as reused.
 * - `login_attempt`: failed logins per e-mail and client IP, in the database so that every instance counts the same
 *   failures (the throttle of section 13 must not be escaped by landing on another instance).
 * - `audit_entry`: every admin write, with the groups of the record it touched (`city_group_ids`), which scope who
 *   may read it. `user_id` has no foreign key: the history outlives the accounts it names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE account (
      id uuid PRIMARY KEY,
      email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
      name text NOT NULL,
      password_hash text NOT NULL,
      permissions text[] NOT NULL DEFAULT '{}'
        CHECK (permissions <@ ARRAY['CITIES', 'CHALLENGES', 'BLOG_POSTS', 'CMS', 'CHAT_CONVERSATIONS', 'USERS']::text[]),
      super_admin boolean NOT NULL DEFAULT false,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_login_at timestamptz
    );
    CREATE UNIQUE INDEX account_email_key ON account (email);

    CREATE TABLE account_city_group (
      account_id uuid NOT NULL REFERENCES account(id) ON DELETE CASCADE,
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      PRIMARY KEY (account_id, city_group_id)
    );
    CREATE INDEX account_city_group_group_idx ON account_city_group (city_group_id);

    CREATE TABLE refresh_session (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES account(id) ON DELETE CASCADE,
      token_hash text NOT NULL,
      created_at timestamptz NOT NULL,
      refreshed_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX refresh_session_account_idx ON refresh_session (account_id);

    CREATE TABLE login_attempt (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      ip text NOT NULL,
      at timestamptz NOT NULL
    );
    CREATE INDEX login_attempt_email_idx ON login_attempt (email, at);
    CREATE INDEX login_attempt_ip_idx ON login_attempt (ip, at);
    CREATE INDEX login_attempt_at_idx ON login_attempt (at);

    CREATE TABLE audit_entry (
      id uuid PRIMARY KEY,
      at timestamptz NOT NULL,
      user_id uuid,
      user_name text NOT NULL,
      action text NOT NULL CHECK (action IN ('create', 'update', 'delete')),
      entity text NOT NULL,
      entity_id uuid NOT NULL,
      city_group_ids uuid[] NOT NULL DEFAULT '{}',
      before jsonb,
      after jsonb
    );
    CREATE INDEX audit_entry_at_idx ON audit_entry (at);
    CREATE INDEX audit_entry_entity_idx ON audit_entry (entity, entity_id, at);
    CREATE INDEX audit_entry_groups_idx ON audit_entry USING gin (city_group_ids)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TABLE IF EXISTS audit_entry;
    DROP TABLE IF EXISTS login_attempt;
    DROP TABLE IF EXISTS refresh_session;
    DROP TABLE IF EXISTS account_city_group;
    DROP TABLE IF EXISTS account
  `);
}
