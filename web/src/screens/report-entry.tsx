// « Un problème ? » on a place's calendar: « Collecte non effectuée ? » for each collection of the last two days
// whose window is open (from noon of its day for 48 hours, docs/api.md, resident requests), pre-filling the form with
// the place, the bin and the day; a link to every other request for the place; the device's requests.
import { get } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { relativeDay, todayInFrance } from '../text.ts';
import type { Collection, RequestType } from '../types.ts';
import { inMissedWindow, MISSED_COLLECTION, missedWindowDays, reportPath } from '../requests.ts';
import { takesPlace } from '../collection-changes.ts';
import { Swatch, useResource } from '../ui.tsx';

/** The collections that may be reported missed now, when the group takes such reports; none on any failure. */
async function missedCandidates(cityId: string, placeId: string, cityGroupId: string | null): Promise<Collection[]> {
  if (!cityGroupId) return [];
  try {
    const { from, to } = missedWindowDays();
    const [types, collections] = await Promise.all([
      get<RequestType[]>(`/public/city-groups/${cityGroupId}/request-types`),
      get<Collection[]>(`/public/cities/${cityId}/places/${placeId}/collections?from=${from}&to=${to}`, { fresh: true }),
    ]);
    if (!types.some((t) => t.code === MISSED_COLLECTION)) return [];
    const now = new Date();
    // The most recent first: the one the resident most likely means.
    return collections.filter((c) => takesPlace(c) && inMissedWindow(c.date, now)).reverse();
  } catch {
    // The calendar never waits for, nor fails with, this offer.
    return [];
  }
}

export function ReportEntry({ cityId, placeId, cityGroupId }: { cityId: string; placeId: string; cityGroupId: string | null }) {
  const today = todayInFrance();
  const missed = useResource(`missed:${cityId}:${placeId}:${today}`, () => missedCandidates(cityId, placeId, cityGroupId));
  const candidates = missed.data ?? [];
  return (
    <div class="card report-entry screen-only">
      <h2 id="report-entry-title">Un problème{'\u00a0'}?</h2>
      {candidates.length > 0 && (
        <ul class="missed" aria-labelledby="report-entry-title">
          {candidates.map((c) => (
            <li key={`${c.date}-${c.wasteTypeId}`}>
              <Link
                class="button secondary"
                href={reportPath({ type: MISSED_COLLECTION, cityId, placeId, wasteTypeId: c.wasteTypeId, date: c.date })}
              >
                <Swatch color={c.color} /> Collecte non effectuée{'\u00a0'}?{' '}
                <span class="missed-what">
                  {c.wasteTypeName}, {relativeDay(c.date, today)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <p class="actions">
        <Link class="button secondary" href={reportPath({ cityId, placeId })}>
          Signaler un problème
        </Link>
        <Link class="button secondary" href="/mes-demandes">
          Mes demandes
        </Link>
      </p>
    </div>
  );
}
