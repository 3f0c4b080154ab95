import { frenchDate as kernelFrenchDate } from '../../kernel/french.ts';
import { todayIn, parseCalendarDate } from '../../kernel/dates.ts';
import { computeCalendar, nextCollections, type CancelledOccurrence, type Occurrence, type PlaceSchedule } from '../../domain/collection-calendar.ts';
import type { CityKnowledge, Place, WasteType } from './model.ts';

/**
 * A place's collections, from the calendar engine (domain/collection-calendar.ts) with every move, addition and
 * holiday rule applied: next ones, a day's and what became of the collections planned that day, changes ahead.
 */

/**
 * The calendar engine's view of a place: its schedule as loaded with the city (repository.ts). A place the schedules
 * lack (none, read on one snapshot) has no collection the assistant could state: it never guesses one from the
 * published days, which do not say where a collection moved.
 */
export function scheduleOf(knowledge: CityKnowledge, place: Place): PlaceSchedule {
  return knowledge.schedules[place.id] ?? { timeZone: knowledge.timeZone, days: [], exceptions: [], wasteTypes: [] };
}

/** "mardi 24 novembre 2026", "mardi 1er décembre 2026": the kernel's French date with its year. */
export function frenchDate(day: string): string {
  return kernelFrenchDate(day, { year: true });
}

export interface NextCollectionFact {
  wasteType: WasteType;
  /** The next collection on or after today (moved, added or as planned), or null when none is planned within a year. */
  next: Occurrence | null;
  /** Regular collections removed by an exception or a holiday rule between today and the next one. */
  cancelled: CancelledOccurrence[];
}

/** The next collection of each waste type asked about (all collected ones when `wasteTypes` is null) at a place. */
export function nextCollectionFacts(
  knowledge: CityKnowledge,
  place: Place,
  wasteTypes: WasteType[] | null,
  now: Date,
): NextCollectionFact[] {
  const schedule = scheduleOf(knowledge, place);
  const nexts = nextCollections(schedule, now);
  const today = todayIn(knowledge.timeZone, now);
  const { cancelled } = computeCalendar(schedule, { from: today, to: today + 366 });
  const collected = new Set(place.collectionDays.map((d) => d.wasteTypeId));
  const asked = wasteTypes ?? knowledge.city.wasteTypes.filter((w) => collected.has(w.id));
  return asked.map((wasteType) => {
    const next = nexts.find((o) => o.wasteTypeId === wasteType.id) ?? null;
    const skipped = cancelled.filter((c) => c.wasteTypeId === wasteType.id && (next === null || c.date < next.date));
    return { wasteType, next, cancelled: skipped };
  }).sort((a, b) => (a.next?.date ?? '9999').localeCompare(b.next?.date ?? '9999'));
}

/**
 * What became of a collection of a day at a place: held as planned (`kept`), moved away from that day or onto it
 * (`moved`: its `originalDate` or its `date` is the day), added that day, cancelled (with the next collection of its
 * waste type after the day), or not held that day without a day of its own (`notHeld`: moved onto a day that already
 * had that waste type, where the engine counts one collection).
 */
export type DayFate =
  | { kind: 'kept' | 'moved' | 'added'; occurrence: Occurrence }
  /** `next`: the next collection of its waste type after the day (null: none within a year; undefined: not looked for). */
  | { kind: 'cancelled'; occurrence: CancelledOccurrence; next?: Occurrence | null }
  | { kind: 'notHeld'; wasteTypeId: string; wasteTypeName: string; day: string; next: Occurrence | null };

/** How far from its planned day a collection may land (a MOVE at most 14 days; holiday rules a few). */
const MOVE_REACH_DAYS = 16;
/** How far the next collection after a cancelled one is looked for. */
const NEXT_REACH_DAYS = 366;

/** The fates of the collections planned on a day ("YYYY-MM-DD") at a place, or moved onto it or added to it. */
export function dayFates(knowledge: CityKnowledge, place: Place, day: string): DayFate[] {
  const n = parseCalendarDate(day)!;
  const schedule = scheduleOf(knowledge, place);
  const { occurrences, cancelled } = computeCalendar(schedule, { from: n - MOVE_REACH_DAYS, to: n + NEXT_REACH_DAYS });
  const nextAfter = (wasteTypeId: string) => occurrences.find((o) => o.wasteTypeId === wasteTypeId && o.date > day) ?? null;
  const fates: DayFate[] = [];
  for (const o of occurrences) {
    if (o.date === day) fates.push({ kind: o.status === 'PLANNED' ? 'kept' : o.status === 'ADDED' ? 'added' : 'moved', occurrence: o });
    else if (o.status === 'MOVED' && o.originalDate === day) fates.push({ kind: 'moved', occurrence: o });
  }
  for (const c of cancelled) if (c.date === day) fates.push({ kind: 'cancelled', occurrence: c, next: nextAfter(c.wasteTypeId) });
  // The weekly rules' collections of the day that went nowhere the calendar shows.
  const accounted = new Set(
    fates.flatMap((f) => (f.kind === 'notHeld' || f.kind === 'added' || (f.kind === 'moved' && f.occurrence.originalDate !== day) ? [] : [f.occurrence.wasteTypeId])),
  );
  const weekly = computeCalendar({ ...schedule, exceptions: [], holidayRules: [] }, { from: n, to: n }).occurrences;
  for (const o of weekly) {
    if (accounted.has(o.wasteTypeId)) continue;
    fates.push({ kind: 'notHeld', wasteTypeId: o.wasteTypeId, wasteTypeName: o.wasteTypeName, day, next: nextAfter(o.wasteTypeId) });
  }
  return fates;
}

/** The first collection of each waste type after a day ("YYYY-MM-DD") at a place, by date. */
export function collectionsAfter(knowledge: CityKnowledge, place: Place, day: string): Occurrence[] {
  const n = parseCalendarDate(day)!;
  const { occurrences } = computeCalendar(scheduleOf(knowledge, place), { from: n + 1, to: n + NEXT_REACH_DAYS });
  const firsts = new Map<string, Occurrence>();
  for (const o of occurrences) if (!firsts.has(o.wasteTypeId)) firsts.set(o.wasteTypeId, o);
  return [...firsts.values()];
}

/**
 * What differs from the weekly rules over the coming days at a place (holidays, works, winter pause…): the collections
 * moved, added or cancelled, by the day they were planned for. A collection moved from a day already past onto one to
 * come is among them.
 */
export function upcomingChanges(knowledge: CityKnowledge, place: Place, now: Date, days = 60): Occurrence[] {
  const today = todayIn(knowledge.timeZone, now);
  const { occurrences, cancelled } = computeCalendar(scheduleOf(knowledge, place), { from: today, to: today + days });
  const changed = [...occurrences.filter((o) => o.status !== 'PLANNED'), ...cancelled];
  const planned = (o: Occurrence) => o.originalDate ?? o.date;
  return changed.sort((a, b) => planned(a).localeCompare(planned(b)) || a.date.localeCompare(b.date));
}

/** The places of the city where a waste type is collected door to door. */
export function placesCollecting(knowledge: CityKnowledge, wasteType: WasteType): Place[] {
  return knowledge.city.wasteCollectionPlaces.filter((p) => p.collectionDays.some((d) => d.wasteTypeId === wasteType.id));
}
