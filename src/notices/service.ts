import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { toNotice } from './mapper.ts';
import { findCurrentAndComingNotices, findNoticeCity, isPlaceOfCity } from './repository.ts';
import type { Notice } from './schemas.ts';

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
  const city = await findNoticeCity(db, cityId);
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
