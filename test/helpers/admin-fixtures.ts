import type { FastifyInstance } from 'fastify';
import { ids } from './city-fixtures.ts';
import { authApp, createAccount, loginHeaders } from './auth-fixtures.ts';

/** An admin request with the given headers (an agent's Authorization, an If-Match). */
export const inject = (app: FastifyInstance, headers: Record<string, string>, method: string, url: string, payload?: object) =>
  app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });

/**
 * The cities' fixtures and four logged-in agents: a super admin, a manager of `ids.group` holding CITIES, an agent
 * holding CITIES for `ids.emptyGroup` only, and an editor of `ids.group` holding BLOG_POSTS alone.
 */
export async function citiesAdminApp(t: Parameters<typeof authApp>[0], kind: Parameters<typeof authApp>[1]) {
  const { app, database } = await authApp(t, kind);
  const db = database.db;
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
  await createAccount(db, { email: 'manager@brest.fr', name: 'Gaëlle Manager', permissions: ['CITIES'] });
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', permissions: ['CITIES'], cityGroupIds: [ids.emptyGroup] });
  await createAccount(db, { email: 'editor@brest.fr', name: 'Éditrice', permissions: ['BLOG_POSTS'] });
  const [asRoot, asManager, asOutsider, asEditor] = await Promise.all(
    ['root@collecte.fr', 'manager@brest.fr', 'outsider@aber.fr', 'editor@brest.fr'].map((email) => loginHeaders(app, email)),
  );
  return { app, database, db, asRoot, asManager, asOutsider, asEditor };
}

/**
 * citiesAdminApp's agents plus a challenge manager of `ids.group` holding CHALLENGES alone, and an agent holding
 * CHALLENGES for `ids.emptyGroup` only.
 */
export async function challengesAdminApp(t: Parameters<typeof authApp>[0], kind: Parameters<typeof authApp>[1]) {
  const built = await citiesAdminApp(t, kind);
  await createAccount(built.db, { email: 'coach@brest.fr', name: 'Loïc Défis', permissions: ['CHALLENGES'] });
  await createAccount(built.db, { email: 'coach@aber.fr', name: 'Aber Défis', permissions: ['CHALLENGES'], cityGroupIds: [ids.emptyGroup] });
  const [asCoach, asOtherCoach] = await Promise.all(['coach@brest.fr', 'coach@aber.fr'].map((email) => loginHeaders(built.app, email)));
  return { ...built, asCoach, asOtherCoach };
}
