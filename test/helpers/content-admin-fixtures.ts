import type { Clock } from '../../src/app.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import { buildTestApp } from './app.ts';
import { authApp, authEnv, createAccount, loginHeaders } from './auth-fixtures.ts';
import { ids } from './city-fixtures.ts';

export { inject } from './admin-fixtures.ts';

/**
 * The cities' fixtures and five logged-in agents for the content resources: a super admin, an editor of `ids.group`
 * holding BLOG_POSTS, a webmaster of `ids.group` holding CMS, an outsider holding both for `ids.emptyGroup` only,
 * and a manager of `ids.group` holding CITIES alone.
 */
export async function contentAdminApp(t: Parameters<typeof authApp>[0], kind: DatabaseKind, options: { clock?: Clock } = {}) {
  const { app, database } = await authApp(t, kind, { clock: options.clock });
  const db = database.db;
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
  await createAccount(db, { email: 'editor@brest.fr', name: 'Éditrice', permissions: ['BLOG_POSTS'] });
  await createAccount(db, { email: 'webmaster@brest.fr', name: 'Webmestre', permissions: ['CMS'] });
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', permissions: ['BLOG_POSTS', 'CMS'], cityGroupIds: [ids.emptyGroup] });
  await createAccount(db, { email: 'manager@brest.fr', name: 'Gaëlle Manager', permissions: ['CITIES'] });
  const [asRoot, asEditor, asWebmaster, asOutsider, asManager] = await Promise.all(
    ['root@collecte.fr', 'editor@brest.fr', 'webmaster@brest.fr', 'outsider@aber.fr', 'manager@brest.fr'].map((email) => loginHeaders(app, email)),
  );
  /** Another instance of the service on the same database (as behind a load balancer), with the same clock. */
  const secondInstance = async () => (await buildTestApp(t, kind, { database, env: authEnv, clock: options.clock })).app;
  return { app, db, asRoot, asEditor, asWebmaster, asOutsider, asManager, secondInstance };
}

/** The current data version, as stored. */
export const storedVersion = async (db: Awaited<ReturnType<typeof contentAdminApp>>['db']) =>
  Number((await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version);
