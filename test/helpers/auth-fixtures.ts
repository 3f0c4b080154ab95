import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { OPERATOR, createUser } from '../../src/auth/users.ts';
import type { Permission } from '../../src/auth/permissions.ts';
import type { User } from '../../src/auth/schemas.ts';
import type { Clock } from '../../src/app.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import { buildTestApp } from './app.ts';
import { ids, seedCities } from './city-fixtures.ts';
import { consoleEnv } from './console-fixtures.ts';

export { CONSOLE_SECRET, bearer, consoleEnv as authEnv } from './console-fixtures.ts';

type InjectResponse = Awaited<ReturnType<FastifyInstance['inject']>>;

/** The password every fixture account has. */
export const PASSWORD = 'correct horse battery staple';

/** The app with logins on (CONSOLE_JWT_SECRET), on a fresh database holding the cities' fixtures. */
export async function authApp(
  t: Parameters<typeof buildTestApp>[0],
  kind: DatabaseKind,
  options: { clock?: Clock; env?: Record<string, string> } = {},
) {
  const built = await buildTestApp(t, kind, { env: { ...consoleEnv, ...options.env }, clock: options.clock });
  await seedCities(built.database.db);
  return built;
}

/** Creates an account as the operator would (argon2id hash, audit entry); an agent of `ids.group` by default. */
export async function createAccount(
  db: Kysely<DB>,
  values: { email?: string; name?: string; permissions?: Permission[]; cityGroupIds?: string[]; superAdmin?: boolean; active?: boolean; password?: string } = {},
  now = new Date('2026-11-01T08:00:00.000Z'),
): Promise<User> {
  const { user } = await createUser(
    db,
    OPERATOR,
    {
      email: values.email ?? 'awa.diallo@brest-metropole.fr',
      name: values.name ?? 'Awa Diallo',
      password: values.password ?? PASSWORD,
      permissions: values.permissions ?? ['CHAT_CONVERSATIONS'],
      cityGroupIds: values.cityGroupIds ?? (values.superAdmin ? [] : [ids.group]),
      superAdmin: values.superAdmin ?? false,
      active: values.active ?? true,
    },
    now,
  );
  return user;
}

/** POST /auth/login from `ip` (inject's default address otherwise). */
export function postLogin(app: FastifyInstance, email: string, password: string, ip?: string) {
  return app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, ...(ip ? { remoteAddress: ip } : {}) });
}

/** The refresh cookie a response set: its value and its attributes as written. */
export function refreshCookieOf(response: InjectResponse): { value: string; header: string } {
  const header = [response.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('collecte_refresh='));
  if (!header) throw new Error(`no refresh cookie in ${JSON.stringify(response.headers)}`);
  return { value: decodeURIComponent(header.slice('collecte_refresh='.length).split(';')[0]), header };
}

export function postRefresh(app: FastifyInstance, cookie: string | null) {
  return app.inject({ method: 'POST', url: '/auth/refresh', ...(cookie === null ? {} : { cookies: { collecte_refresh: cookie } }) });
}

/** Logs in and answers the access token's Authorization header. */
export async function loginHeaders(app: FastifyInstance, email: string, password = PASSWORD): Promise<{ authorization: string }> {
  const res = await postLogin(app, email, password);
  if (res.statusCode !== 200) throw new Error(`login of ${email}: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json().accessToken}` };
}
