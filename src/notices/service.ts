import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { toNotice } from './mapper.ts';
import { countAudience, findCurrentAndComingNotices, groupCitiesAndPlaces, isPlaceOfCity } from './repository.ts';
import type { Notice, NoticeAudience, NoticeAudienceQueryInput } from './schemas.ts';
import { reachableRecord, type AdminAgent } from '../admin/agent.ts';
import { assertNoFault, groupFound } from '../admin/store.ts';
import { findActiveCity, findCityGroupRef } from '../domain/cities.ts';
import { noticeScopeFaults } from './notice-rules.ts';

/**
 * The notices a resident of a city (or of one of its places) sees now, and when that answer stops being right: the
 * next `startsAt` or `endsAt` to come among the notices that cover them. No write happens at those times, so the
 * public answer must not be kept past them (routes.ts bounds its caching by `nextChange`).
 */
export async function noticesInForce(
  db: Kysely<DB>,
  cityId: string,
  placeId: string | null,
  now: Date,
): Promise<{ notices: Notice[]; nextChange: Date | null }> {
  const city = await findActiveCity(db, cityId);
  if (!city) throw errors.cityNotFound();
  if (placeId !== null && !(await isPlaceOfCity(db, placeId, city.id))) throw errors.collectionPlaceNotFound('placeId');
  // A city of no group has no notices: they are a group's.
  if (city.cityGroupId === null) return { notices: [], nextChange: null };
  const rows = await findCurrentAndComingNotices(db, { id: city.id, cityGroupId: city.cityGroupId }, placeId, now);
  const t = now.getTime();
  let next = Infinity;
  const notices: Notice[] = [];
  for (const row of rows) {
    const starts = row.starts_at.getTime();
    if (starts > t) next = Math.min(next, starts);
    else notices.push(toNotice(row));
    // Rows that have ended at `now` were left out by the query.
    if (row.ends_at !== null) next = Math.min(next, row.ends_at.getTime());
  }
  return { notices, nextChange: Number.isFinite(next) ? new Date(next) : null };
}

/**
 * Who a notice of this scope would reach if sent now (the console shows it before sending): the scope is checked as a
 * notice's (400 naming `placeIds[1]`), the group must be the agent's (404 at `cityGroupId`).
 */
export async function noticeAudience(db: Kysely<DB>, agent: AdminAgent, query: NoticeAudienceQueryInput): Promise<NoticeAudience> {
  const notFound = () => errors.cityGroupNotFound('cityGroupId');
  const group = reachableRecord(agent, groupFound(await findCityGroupRef(db, query.cityGroupId.toLowerCase())), (f) => f.groupIds, notFound);
  const scope = {
    cityIds: [...new Set((query.cityIds ?? []).map((id) => id.toLowerCase()))],
    placeIds: [...new Set((query.placeIds ?? []).map((id) => id.toLowerCase()))],
  };
  const { cityIds, placeCity } = await groupCitiesAndPlaces(db, group.row.id, scope.placeIds);
  assertNoFault(noticeScopeFaults(scope, { groupCityIds: cityIds, placeCity }));
  const { push, email } = await countAudience(db, group.row.id, scope);
  return { subscriptions: push + email, push, email };
}
