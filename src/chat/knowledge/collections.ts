import { frenchDate as kernelFrenchDate } from '../../kernel/french.ts';
import { todayIn, parseCalendarDate, type FrenchWeekday } from '../../kernel/dates.ts';
import { computeCalendar, nextCollections, type CancelledOccurrence, type Occurrence, type PlaceSchedule } from '../../domain/collection-calendar.ts';
import type { CityKnowledge, Place, WasteType } from './model.ts';

/** A place's collections, from the calendar engine (domain/collection-calendar.ts): next ones, a day's, exceptions. */

/** The calendar engine's view of a place. */
export function scheduleOf(knowledge: CityKnowledge, place: Place): PlaceSchedule {
  return {
    timeZone: knowledge.timeZone,
    days: place.collectionDays.map((d) => ({
      name: d.name as FrenchWeekday,
      wasteTypeId: d.wasteTypeId,
      biweekly: d.biweekly,
      startDate: d.startDate ? new Date(d.startDate) : null,
    })),
    exceptions: place.exceptions.map((e) => ({
      dateFrom: new Date(e.dateFrom),
      dateTo: e.dateTo ? new Date(e.dateTo) : null,
      wasteTypeId: e.wasteTypeId,
      name: e.name,
      description: e.description,
    })),
    wasteTypes: knowledge.city.wasteTypes.map((w) => ({ id: w.id, name: w.name, color: w.color })),
  };
}

/** "mardi 24 novembre 2026", "mardi 1er décembre 2026": the kernel's French date with its year. */
export function frenchDate(day: string): string {
  return kernelFrenchDate(day, { year: true });
}

export interface NextCollectionFact {
  wasteType: WasteType;
  /** The next collection on or after today, or null when none is planned within a year. */
  next: Occurrence | null;
  /** Regular collections removed by an exception between today and the next one (what happens instead). */
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

/** The collections of one day ("YYYY-MM-DD") at a place, and those exceptions remove that day. */
export function collectionsOfDay(knowledge: CityKnowledge, place: Place, day: string) {
  const n = parseCalendarDate(day)!;
  return computeCalendar(scheduleOf(knowledge, place), { from: n, to: n });
}

/** Regular collections that exceptions remove over the coming days at a place (holidays, winter pause…). */
export function upcomingExceptions(knowledge: CityKnowledge, place: Place, now: Date, days = 60): CancelledOccurrence[] {
  const today = todayIn(knowledge.timeZone, now);
  return computeCalendar(scheduleOf(knowledge, place), { from: today, to: today + days }).cancelled;
}

/** The places of the city where a waste type is collected door to door. */
export function placesCollecting(knowledge: CityKnowledge, wasteType: WasteType): Place[] {
  return knowledge.city.wasteCollectionPlaces.filter((p) => p.collectionDays.some((d) => d.wasteTypeId === wasteType.id));
}
