import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../src/app.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import { authApp, createAccount, loginHeaders } from './auth-fixtures.ts';
import { ids } from './city-fixtures.ts';
import { inject } from './admin-fixtures.ts';

/**
 * Service notices' tests: the cities' fixtures (Brest with its places Centre-ville and Secteur Nord, and Élorn, in
 * `ids.group`; `ids.emptyGroup`; Zeta, of no group) on an app whose clock the test sets, and three logged-in agents:
 * a super admin, a CITIES manager of `ids.group`, and a CITIES agent of `ids.emptyGroup` only. Their access tokens
 * last 15 minutes of the app's clock: a test that moves it further logs in again (`loginHeaders`).
 */
export async function noticesApp(
  t: Parameters<typeof authApp>[0],
  kind: DatabaseKind,
  options: { clock?: Clock; env?: Record<string, string> } = {},
) {
  const { app, database } = await authApp(t, kind, options);
  const db = database.db;
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
  await createAccount(db, { email: 'manager@brest.fr', name: 'Gaëlle Manager', permissions: ['CITIES'] });
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', permissions: ['CITIES'], cityGroupIds: [ids.emptyGroup] });
  const [asRoot, asManager, asOutsider] = await Promise.all(['root@collecte.fr', 'manager@brest.fr', 'outsider@aber.fr'].map((email) => loginHeaders(app, email)));
  return { app, database, db, asRoot, asManager, asOutsider };
}

/** POST /admin/notices as `headers`, expecting 201: the notice as the admin API shows it. */
export async function createNotice(app: FastifyInstance, headers: Record<string, string>, body: Record<string, unknown>) {
  const response = await inject(app, headers, 'POST', '/admin/notices', { cityGroupId: ids.group, title: 'Avis', body: 'Texte de l’avis.', ...body });
  if (response.statusCode !== 201) throw new Error(`POST /admin/notices: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; notifiedAt: string | null } & Record<string, unknown>;
}
