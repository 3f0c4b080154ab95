import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { computeCalendar, type PlaceSchedule } from '../domain/collection-calendar.ts';
import { readDataVersion } from '../db/data-version.ts';
import { dayNumberFromParts, formatDayNumber, parseCalendarDate, resolveTimeZone, startOfDayIn, wallClockParts } from '../kernel/dates.ts';
import { alertBody } from './messages.ts';
import { loadSchedules } from './planner.ts';
import { subscribedTimeZones } from './repository.ts';

/**
 * Service alerts: when a change of data adds, removes or moves a collection within the next 14 days
 * at a place, its subscribers get one message per change. Whatever made the change (an import, an admin write, a
 * script) moves the data version; the worker then computes again the window of each place that has subscribers,
 * compares it with what it saw last (`reminder_place_calendar`), and puts one ALERT row per subscription and change
 * in the ledger, keyed on (day, waste type, added or removed, data version): a second worker computing the same
 * comparison inserts nothing more. A place seen for the first time, or the window moving with the days, alerts
 * nobody. Places are read in batches.
 */

/** Days after today that an alert covers (tomorrow through today + 14). */
export const ALERT_WINDOW_DAYS = 14;

export interface AlertOptions {
  now: Date;
  batchSize: number;
  publicBaseUrl: string | null;
}

interface Change {
  day: number;
  dayText: string;
  wasteTypeId: string;
  wasteTypeName: string;
  added: boolean;
  reason: string | null;
  /** A collection of the old window now taking place on another day: that day (`YYYY-MM-DD`). */
  movedTo: string | null;
}

/** Answers how many alert deliveries were created. */
export async function planAlerts(db: Kysely<DB>, options: AlertOptions): Promise<number> {
  const version = await readDataVersion(db);
  const zones = await subscribedTimeZones(db);
  let created = 0;
  for (const { time_zone: storedZone } of zones) {
    const zone = resolveTimeZone(storedZone);
    const [year, month, day] = wallClockParts(options.now, zone);
    const from = dayNumberFromParts(year, month, day) + 1;
    const window = { zone, storedZone, from, to: from + ALERT_WINDOW_DAYS - 1, version };
    let after = '';
    for (;;) {
      const places = await stalePlaces(db, window, after, options.batchSize);
      if (places.length === 0) break;
      after = places.at(-1)!.place_id;
      created += await comparePlaces(db, window, places, options);
    }
  }
  return created;
}

interface Window {
  zone: string;
  storedZone: string;
  from: number;
  to: number;
  version: number;
}

type SeenPlace = { place_id: string; place_name: string; seen_version: string | number | null; from_day: string | null; to_day: string | null; occurrences: string[] | null };

/** Places of the zone with subscribers whose window was computed at another data version or another day. */
async function stalePlaces(db: Kysely<DB>, w: Window, after: string, limit: number): Promise<SeenPlace[]> {
  return db
    .selectFrom('collection_place as p')
    .innerJoin('city as c', 'c.id', 'p.city_id')
    .leftJoin('reminder_place_calendar as seen', 'seen.place_id', 'p.id')
    .select(['p.id as place_id', 'p.name as place_name', 'seen.data_version as seen_version', 'seen.from_day', 'seen.to_day', 'seen.occurrences'])
    .where('c.time_zone', '=', w.storedZone)
    .where('c.status', '=', 'ACTIF')
    .where('p.id', '>', after === '' ? '00000000-0000-0000-0000-000000000000' : after)
    .where((eb) =>
      eb.exists(eb.selectFrom('reminder_subscription as s').select(sql.lit(1).as('one')).where('s.place_id', '=', eb.ref('p.id')).where('s.status', '=', 'ACTIVE')),
    )
    .where((eb) =>
      eb.or([eb('seen.place_id', 'is', null), eb('seen.data_version', '<>', w.version), eb('seen.from_day', '<>', formatDayNumber(w.from))]),
    )
    .orderBy('p.id')
    .limit(limit)
    .execute();
}

/**
 * What was added, removed or moved between two windows, on the days both cover. A collection of the old window that
 * now takes place on another day (up to two weeks after the window) is one change naming both days, not a removal and
 * an addition.
 */
function changesOf(place: SeenPlace, schedule: PlaceSchedule | undefined, w: Window): { now: string[]; changes: Change[] } {
  const calendar = schedule ? computeCalendar(schedule, { from: w.from, to: w.to + MOVE_LOOKAHEAD_DAYS }) : { occurrences: [], cancelled: [] };
  const inWindow = calendar.occurrences.filter((o) => o.date <= formatDayNumber(w.to));
  const now = inWindow.map((o) => `${o.date}|${o.wasteTypeId}`);
  // Nothing to compare with (a place seen for the first time), or the same data as before (only the days moved).
  if (!place.occurrences || Number(place.seen_version) === w.version) return { now, changes: [] };
  const first = Math.max(w.from, parseCalendarDate(place.from_day!) ?? w.from);
  const last = Math.min(w.to, parseCalendarDate(place.to_day!) ?? w.to);
  const inBoth = (key: string) => {
    const day = parseCalendarDate(key.slice(0, 10))!;
    return day >= first && day <= last;
  };
  const before = new Set(place.occurrences.filter(inBoth));
  const after = new Set(now.filter(inBoth));
  const names = new Map(schedule?.wasteTypes.map((t) => [t.id, t.name]) ?? []);
  const reasons = new Map(calendar.cancelled.map((c) => [`${c.date}|${c.wasteTypeId}`, c.exceptionName || c.exceptionDescription || c.note]));
  // Where each collection planned on a day went, when it moved.
  const moves = new Map(calendar.occurrences.filter((o) => o.status === 'MOVED').map((o) => [`${o.originalDate}|${o.wasteTypeId}`, o]));
  const movedIn = new Set<string>();
  const changes: Change[] = [];
  const change = (key: string, added: boolean, movedTo: string | null = null, reason: string | null = null) => {
    const [dayText, wasteTypeId] = key.split('|');
    const name = names.get(wasteTypeId);
    // A waste type deleted with its collections: nothing a citizen could be told by name.
    if (name === undefined) return;
    changes.push({ day: parseCalendarDate(dayText)!, dayText, wasteTypeId, wasteTypeName: name, added, reason, movedTo });
  };
  for (const key of before) {
    if (after.has(key)) continue;
    const moved = moves.get(key);
    if (moved && !before.has(`${moved.date}|${moved.wasteTypeId}`)) {
      movedIn.add(`${moved.date}|${moved.wasteTypeId}`);
      change(key, false, moved.date, null);
    } else {
      change(key, false, null, reasons.get(key) ?? null);
    }
  }
  for (const key of after) if (!before.has(key) && !movedIn.has(key)) change(key, true);
  return { now, changes };
}

/** How far after the window a collection moved out of it is followed, to name its new day. */
const MOVE_LOOKAHEAD_DAYS = 14;

async function comparePlaces(db: Kysely<DB>, w: Window, places: SeenPlace[], options: AlertOptions): Promise<number> {
  const schedules = await loadSchedules(db, places.map((p) => p.place_id));
  let created = 0;
  for (const place of places) {
    const { now, changes } = changesOf(place, schedules.get(place.place_id), w);
    for (const c of changes) {
      const key = `${c.dayText}|${c.wasteTypeId}|${c.movedTo ? `MOVED-${c.movedTo}` : c.added ? 'ADDED' : 'REMOVED'}|v${w.version}`;
      const title = `Changement de collecte – ${place.place_name}`;
      const body = alertBody(c);
      const tag = `collecte-${place.place_id}-${c.dayText}`;
      // One row per subscriber of the place that asked for this waste type, written by the database in one statement.
      const result = await sql`
        INSERT INTO reminder_delivery (subscription_id, kind, key, status, message, expires_at, run_after, created_at)
        SELECT s.id, 'ALERT', ${key}, 'PENDING',
          jsonb_build_object('title', ${title}::text, 'body', ${body}::text, 'tag', ${tag}::text,
            'url', coalesce(${options.publicBaseUrl}::text, s.origin) || '/communes/' || s.city_id || '/' || s.place_id),
          ${startOfDayIn(c.day, w.zone)}, ${options.now}, ${options.now}
        FROM reminder_subscription s
        WHERE s.place_id = ${place.place_id} AND s.status = 'ACTIVE'
          AND (s.waste_type_ids = '[]'::jsonb OR s.waste_type_ids @> jsonb_build_array(${c.wasteTypeId}::text))
        ON CONFLICT (subscription_id, kind, key) DO NOTHING`.execute(db);
      created += Number(result.numAffectedRows ?? 0);
    }
    const seen = { data_version: w.version, from_day: formatDayNumber(w.from), to_day: formatDayNumber(w.to), occurrences: JSON.stringify(now) };
    await db
      .insertInto('reminder_place_calendar')
      .values({ place_id: place.place_id, ...seen })
      .onConflict((oc) => oc.column('place_id').doUpdateSet(seen))
      .execute();
  }
  return created;
}
