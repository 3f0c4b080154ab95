import { frenchCollator, iso, sortByText } from '../../kernel/french.ts';
import { FRENCH_WEEKDAYS } from '../../kernel/dates.ts';
import type { CityRow, CityRows } from './repository.ts';
import type { ExceptionKind } from '../collection-calendar.ts';
import type { CityApi, WasteCollectionPlaceApi, WasteTypeApi } from './schemas.ts';

/** The one place where rows of the published city become its API shape, with the orders of docs/api.md, conventions. */

type Row<K extends keyof Omit<CityRows, 'cities' | 'challenges'>> = CityRows[K][number];

const WEEKDAY_ORDER = new Map<string, number>(FRENCH_WEEKDAYS.map((day, i) => [day, i]));

/** A waste type with its details by material (the admin API adds its city). */
export function toWasteType(w: Row<'wasteTypes'>, details: Row<'details'>[]): WasteTypeApi {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    instructions: w.instructions,
    color: w.color,
    colorLight: w.color_light,
    icon: w.icon,
    imageUrl: w.image_url,
    details: sortByText(details, (d) => d.material).map((d) => ({
      id: d.id,
      material: d.material,
      description: d.description,
      instructions: d.instructions,
      imageUrl: d.image_url,
    })),
  };
}

/** Days from Monday to Sunday, then by waste type name, then id (the admin API lists a place's days so too). */
export function toCollectionDays(days: Row<'days'>[], typeNames: Map<string, string>): WasteCollectionPlaceApi['collectionDays'] {
  return days
    .sort(
      (a, b) =>
        WEEKDAY_ORDER.get(a.name)! - WEEKDAY_ORDER.get(b.name)! ||
        frenchCollator.compare(typeNames.get(a.waste_type_id) ?? '', typeNames.get(b.waste_type_id) ?? '') ||
        (a.id < b.id ? -1 : 1),
    )
    .map((d) => ({
      id: d.id,
      name: d.name,
      wasteTypeId: d.waste_type_id,
      description: d.description,
      biweekly: d.biweekly,
      startDate: iso(d.start_date),
    }));
}

/** One exception as the public API and the import bundle show it. */
export function toException(e: Row<'exceptions'>): WasteCollectionPlaceApi['exceptions'][number] {
  return { id: e.id, dateFrom: iso(e.date_from)!, dateTo: iso(e.date_to), wasteTypeId: e.waste_type_id, name: e.name, description: e.description };
}

/** One exception as the import bundle and the admin API hold it: the public shape with its kind (section 16). */
export function toExceptionRecord(e: Row<'exceptions'> & { kind: ExceptionKind; moved_to: Date | null }) {
  return { ...toException(e), kind: e.kind, movedTo: iso(e.moved_to) };
}

/** Exceptions by dateFrom, then id. */
function toExceptions(exceptions: Row<'exceptions'>[]): WasteCollectionPlaceApi['exceptions'] {
  return exceptions.sort((a, b) => a.date_from.getTime() - b.date_from.getTime() || (a.id < b.id ? -1 : 1)).map(toException);
}

export function toAttachedLocation(l: Row<'locations'>): WasteCollectionPlaceApi['attachedLocations'][number] {
  return { id: l.id, name: l.name, reference: l.reference, latitude: l.latitude, longitude: l.longitude };
}

/** A place with its days, exceptions and attached locations in the public order; `typeNames` order its days. */
export function toCollectionPlace(
  p: Row<'places'>,
  days: Row<'days'>[],
  exceptions: Row<'exceptions'>[],
  locations: Row<'locations'>[],
  typeNames: Map<string, string>,
): WasteCollectionPlaceApi {
  return {
    id: p.id,
    name: p.name,
    collectionDays: toCollectionDays(days, typeNames),
    exceptions: toExceptions(exceptions),
    attachedLocations: sortByText(locations, (l) => l.name).map(toAttachedLocation),
  };
}

function toRecyclingPoint(p: Row<'points'>): CityApi['recyclingPoints'][number] {
  return { id: p.id, name: p.name, address: p.address, latitude: p.latitude, longitude: p.longitude, openingHours: p.opening_hours };
}

/** One quiz question as the public API and the import bundle show it. */
export function toQuizQuestion(q: Row<'questions'>): CityApi['quizQuestions'][number] {
  return { id: q.id, material: q.material, question: q.question, correctWasteTypeId: q.correct_waste_type_id, order: q.order };
}

/** Questions by order, then material, then id. */
function toQuizQuestions(questions: Row<'questions'>[]): CityApi['quizQuestions'] {
  return questions
    .sort((a, b) => a.order - b.order || frenchCollator.compare(a.material, b.material) || (a.id < b.id ? -1 : 1))
    .map(toQuizQuestion);
}

function toCityFields(c: CityRow): Omit<CityApi, 'wasteTypes' | 'wasteCollectionPlaces' | 'challenges' | 'recyclingPoints' | 'quizQuestions'> {
  return {
    id: c.id,
    name: c.name,
    country: c.country,
    population: c.population,
    status: c.status,
    outOfTheBins: c.out_of_the_bins,
    presentationOfBins: c.presentation_of_bins,
    returnOfBins: c.return_of_bins,
    respectOfCalendar: c.respect_of_calendar,
    holidays: c.holidays,
    cityGroup: c.city_group_id ? { id: c.city_group_id, name: c.group_name!, type: c.group_type! } : null,
  };
}

/** The published cities of one read, in the order of its rows. */
export function toCities(rows: CityRows): CityApi[] {
  const detailsByType = Map.groupBy(rows.details, (d) => d.waste_type_id);
  const typesByCity = Map.groupBy(rows.wasteTypes, (w) => w.city_id);
  const daysByPlace = Map.groupBy(rows.days, (d) => d.place_id);
  const exceptionsByPlace = Map.groupBy(rows.exceptions, (e) => e.place_id);
  const locationsByPlace = Map.groupBy(rows.locations, (l) => l.place_id);
  const placesByCity = Map.groupBy(rows.places, (p) => p.city_id);
  const pointsByCity = Map.groupBy(rows.points, (p) => p.city_id);
  const questionsByCity = Map.groupBy(rows.questions, (q) => q.city_id);
  const typeNames = new Map(rows.wasteTypes.map((w) => [w.id, w.name]));

  const toPlace = (p: Row<'places'>): WasteCollectionPlaceApi =>
    toCollectionPlace(p, daysByPlace.get(p.id) ?? [], exceptionsByPlace.get(p.id) ?? [], locationsByPlace.get(p.id) ?? [], typeNames);

  return rows.cities.map((c) => ({
    ...toCityFields(c),
    wasteTypes: sortByText(typesByCity.get(c.id) ?? [], (w) => w.name).map((w) => toWasteType(w, detailsByType.get(w.id) ?? [])),
    wasteCollectionPlaces: sortByText(placesByCity.get(c.id) ?? [], (p) => p.name).map(toPlace),
    challenges: rows.challenges.get(c.id) ?? [],
    recyclingPoints: sortByText(pointsByCity.get(c.id) ?? [], (p) => p.name).map(toRecyclingPoint),
    quizQuestions: toQuizQuestions(questionsByCity.get(c.id) ?? []),
  }));
}
