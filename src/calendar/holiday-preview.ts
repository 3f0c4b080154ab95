import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { reachableRecord, type AdminAgent } from '../admin/agent.ts';
import { assertNoFault } from '../admin/store.ts';
import {
  computeCalendar,
  holidayActionOf,
  plannedDateOf,
  withCancelled,
  type CalendarRange,
  type HolidayRule,
  type PlaceSchedule,
} from '../domain/collection-calendar.ts';
import { groupWasteTypeIds, holidayRulesOf } from '../domain/holiday-rules.ts';
import { holidayRuleFaults } from '../domain/rules/cities.ts';
import { loadSchedules, type ScheduledPlace } from '../domain/schedules.ts';
import { dayNumberFromParts, dayNumberToUtcDate, formatDayNumber, parseCalendarDate, todayIn, type DayNumber } from '../kernel/dates.ts';
import { errors } from '../kernel/errors.ts';
import { compareFrench } from '../kernel/french.ts';
import { holidayOn, type Holiday } from '../kernel/holidays.ts';
import { loadGroupCalendarCities, type GroupCalendarCity } from './repository.ts';
import type { HolidayPreview, HolidayPreviewInput } from './schemas.ts';

/**
 * The preview of a city group's holidays (docs/api.md, exceptions and holiday rules), for the console's « Jours
 * fériés » screen: for each public holiday of the next twelve months, what the group's rules (stored, or proposed and
 * checked with the bundle's rule) do to the collections its places have planned that day. Where each collection lands is the calendar engine's
 * answer for each place (computeCalendar, with the rules given to every schedule), not computed again here; the
 * action named is the rule the engine applies (holidayActionOf). Nothing is stored.
 */

/**
 * How far from its planned day a collection may land: a MOVE goes 14 days at most, the rules' moves a few days (the
 * engine's own margin). The calendar with the rules is computed this much wider than the year looked at.
 */
const LANDING_MARGIN_DAYS = 16;

type Effect = HolidayPreview['holidays'][number]['effects'][number];

/** What one waste type's collections do on one holiday, summed over the places. */
interface Tally {
  wasteTypeId: string;
  cityId: string;
  places: number;
  byException: number;
  landings: Map<DayNumber, number>;
}

/** The tallies of each holiday, by waste type id. */
type Tallies = Map<DayNumber, Map<string, Tally>>;

/** A `YYYY-MM-DD` the engine wrote, as a day number. */
const dayOf = (date: string): DayNumber => parseCalendarDate(date)!;

export async function previewGroupHolidays(
  db: Kysely<DB>,
  agent: AdminAgent,
  cityGroupId: string,
  proposal: HolidayPreviewInput,
  now: Date,
): Promise<HolidayPreview> {
  const group = reachableRecord(agent, await loadGroupCalendarCities(db, cityGroupId), (g) => [g.id], errors.cityGroupNotFound);
  const proposed = proposal.holidayRules?.map((rule): HolidayRule => ({
    holiday: rule.holiday,
    wasteTypeId: rule.wasteTypeId?.toLowerCase() ?? null,
    action: rule.action,
  }));
  const [places, stored, wasteTypeIds] = await Promise.all([
    loadSchedules(db, { cityGroupId: group.id }),
    proposed ? null : holidayRulesOf(db, [group.id]),
    proposed ? groupWasteTypeIds(db, group.id) : null,
  ]);
  if (proposed && wasteTypeIds) assertNoFault(holidayRuleFaults(proposed, { wasteTypeIds }));
  const rules = proposed ?? stored?.get(group.id) ?? [];

  const from = todayIn(mostCommonTimeZone(group.cities), now);
  const start = dayNumberToUtcDate(from);
  const to = dayNumberFromParts(start.getUTCFullYear() + 1, start.getUTCMonth() + 1, start.getUTCDate()) - 1;
  const holidays = holidaysBetween({ from, to }, group.cities);

  const tallies: Tallies = new Map();
  for (const place of places) tallyPlace(place, { ...place.schedule, holidayRules: rules }, { from, to }, holidays, tallies);

  const cityName = new Map(group.cities.map((c) => [c.id, c.name]));
  const wasteTypeName = new Map(places.flatMap((p) => p.schedule.wasteTypes.map((w) => [w.id, w.name] as const)));
  const actionOf = holidayActionOf(rules);
  return {
    from: formatDayNumber(from),
    to: formatDayNumber(to),
    holidays: [...holidays].map(([day, { holiday, cityIds }]) => {
      const effects = [...(tallies.get(day)?.values() ?? [])]
        .map((t): Effect => {
          const action = actionOf(holiday.key, t.wasteTypeId);
          const moves = action === 'NEXT_DAY' || action === 'PREVIOUS_DAY' || action === 'SHIFT_WEEK';
          return {
            wasteTypeId: t.wasteTypeId,
            wasteTypeName: wasteTypeName.get(t.wasteTypeId) ?? '',
            cityId: t.cityId,
            cityName: cityName.get(t.cityId) ?? '',
            action,
            places: t.places,
            byException: t.byException,
            movedTo: moves ? mostFrequent(t.landings) : null,
          };
        })
        .sort((a, b) => compareFrench(a.cityName, b.cityName) || compareFrench(a.wasteTypeName, b.wasteTypeName) || (a.wasteTypeId < b.wasteTypeId ? -1 : 1));
      const cities = group.cities
        .filter((c) => cityIds.has(c.id))
        .map((c) => ({ id: c.id, name: c.name }))
        .sort((a, b) => compareFrench(a.name, b.name) || (a.id < b.id ? -1 : 1));
      return { date: formatDayNumber(day), holiday: holiday.key, name: holiday.name, cities, effects };
    }),
  };
}

/**
 * The public holidays of the range, by day, with the group's cities observing each: every national one (even for a
 * group without cities), and Alsace-Moselle's two where a city follows that calendar.
 */
function holidaysBetween(range: CalendarRange, cities: readonly GroupCalendarCity[]): Map<DayNumber, { holiday: Holiday; cityIds: Set<string> }> {
  const holidays = new Map<DayNumber, { holiday: Holiday; cityIds: Set<string> }>();
  const alsace = cities.filter((c) => c.holidayCalendar === 'FR-ALSACE-MOSELLE');
  for (let day = range.from; day <= range.to; day++) {
    const national = holidayOn(day, 'FR');
    if (national) holidays.set(day, { holiday: national, cityIds: new Set(cities.map((c) => c.id)) });
    else if (alsace.length > 0) {
      const local = holidayOn(day, 'FR-ALSACE-MOSELLE');
      if (local) holidays.set(day, { holiday: local, cityIds: new Set(alsace.map((c) => c.id)) });
    }
  }
  return holidays;
}

/**
 * Adds one place's collections planned on the holidays of its city to the tallies: planned by its weekly days alone,
 * decided by an exception when the calendar without rules no longer has it on its day, and landing where the calendar
 * with the rules puts it.
 */
function tallyPlace(
  place: ScheduledPlace,
  schedule: PlaceSchedule,
  range: CalendarRange,
  holidays: ReadonlyMap<DayNumber, { cityIds: ReadonlySet<string> }>,
  tallies: Tallies,
): void {
  const observed = (date: string) => {
    const day = dayOf(date);
    return holidays.get(day)?.cityIds.has(place.cityId) ? day : null;
  };
  const weekly = computeCalendar({ ...schedule, exceptions: [], holidayRules: [] }, range).occurrences;
  const onHolidays = weekly.flatMap((o) => {
    const day = observed(o.date);
    return day === null ? [] : [{ day, wasteTypeId: o.wasteTypeId }];
  });
  if (onHolidays.length === 0) return;

  // Untouched by the place's exceptions: still planned on its day in the calendar without rules.
  const untouched =
    schedule.exceptions.length === 0
      ? null
      : new Set(
          computeCalendar({ ...schedule, holidayRules: [] }, range)
            .occurrences.filter((o) => o.status === 'PLANNED')
            .map((o) => `${o.date}|${o.wasteTypeId}`),
        );
  const withRules = withCancelled(
    computeCalendar(schedule, { from: range.from - LANDING_MARGIN_DAYS, to: range.to + LANDING_MARGIN_DAYS }),
  );
  const landing = new Map<string, DayNumber>();
  for (const o of withRules) {
    if (o.status === 'ADDED') continue;
    landing.set(`${plannedDateOf(o)}|${o.wasteTypeId}`, dayOf(o.date));
  }

  for (const { day, wasteTypeId } of onHolidays) {
    let ofDay = tallies.get(day);
    if (!ofDay) tallies.set(day, (ofDay = new Map()));
    let tally = ofDay.get(wasteTypeId);
    if (!tally) ofDay.set(wasteTypeId, (tally = { wasteTypeId, cityId: place.cityId, places: 0, byException: 0, landings: new Map() }));
    tally.places += 1;
    const planned = `${formatDayNumber(day)}|${wasteTypeId}`;
    if (untouched && !untouched.has(planned)) {
      tally.byException += 1;
      continue;
    }
    const landed = landing.get(planned);
    if (landed !== undefined && landed !== day) tally.landings.set(landed, (tally.landings.get(landed) ?? 0) + 1);
  }
}

/** The day most collections landed on (the earliest of equals), or null when none moved. */
function mostFrequent(landings: ReadonlyMap<DayNumber, number>): string | null {
  let best: [DayNumber, number] | null = null;
  for (const [day, count] of landings) if (!best || count > best[1] || (count === best[1] && day < best[0])) best = [day, count];
  return best ? formatDayNumber(best[0]) : null;
}

/** The time zone most of the group's cities are in (Europe/Paris for a group without cities). */
function mostCommonTimeZone(cities: readonly GroupCalendarCity[]): string | null {
  const counts = new Map<string, number>();
  for (const city of cities) counts.set(city.timeZone, (counts.get(city.timeZone) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
}
