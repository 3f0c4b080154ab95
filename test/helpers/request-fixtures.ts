import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../src/app.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import { authApp, createAccount, loginHeaders } from './auth-fixtures.ts';
import { ids } from './city-fixtures.ts';

/**
 * Resident requests' tests: the cities' fixtures (Brest with Centre-ville, whose household waste goes on Mondays and
 * Fridays, and Secteur Nord; Élorn; an inactive city; Zeta, of no group) on an app whose clock the test sets, and
 * four agents: a super admin, a REQUESTS agent of `ids.group`, a REQUESTS agent of `ids.emptyGroup` only, and a
 * CITIES manager of `ids.group` without REQUESTS.
 */
export async function requestsApp(
  t: Parameters<typeof authApp>[0],
  kind: DatabaseKind,
  options: { clock?: Clock; env?: Record<string, string> } = {},
) {
  const { app, database } = await authApp(t, kind, options);
  const db = database.db;
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
  const agent = await createAccount(db, { email: 'agent@brest.fr', name: 'Yann Agent', permissions: ['REQUESTS'] });
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', permissions: ['REQUESTS'], cityGroupIds: [ids.emptyGroup] });
  await createAccount(db, { email: 'manager@brest.fr', name: 'Gaëlle Manager', permissions: ['CITIES'] });
  const [asRoot, asAgent, asOutsider, asManager] = await Promise.all(
    ['root@collecte.fr', 'agent@brest.fr', 'outsider@aber.fr', 'manager@brest.fr'].map((email) => loginHeaders(app, email)),
  );
  return { app, database, db, agent, asRoot, asAgent, asOutsider, asManager };
}

/** A device id of the tests: `device-<n>`, long enough for the contract's pattern. */
export const device = (n: number | string) => `device-${n}-0000`;

/** Monday 30 November 2026 in Brest: Centre-ville's household waste is collected; 14:00 in Paris. */
export const MONDAY_AFTERNOON = '2026-11-30T13:00:00.000Z';

/** A missed collection of Centre-ville's household waste on Monday 30 November, by `deviceId`. */
export const missedBody = (deviceId: string, extra: Record<string, unknown> = {}) => ({
  deviceId,
  cityId: ids.brest,
  typeCode: 'collecte-non-effectuee',
  placeId: ids.placeCentre,
  wasteTypeId: ids.wasteOm,
  date: '2026-11-30',
  description: 'Le bac gris était sorti à 6 h et n’a pas été vidé.',
  ...extra,
});

/** POST /public/requests. */
export const fileRequest = (app: FastifyInstance, body: object, remoteAddress?: string) =>
  app.inject({ method: 'POST', url: '/public/requests', payload: body, ...(remoteAddress ? { remoteAddress } : {}) });

/** The REQUESTS agent's headers logged in now: an access token lasts 15 minutes of the app's clock. */
export const agentHeaders = (app: FastifyInstance) => loginHeaders(app, 'agent@brest.fr');
