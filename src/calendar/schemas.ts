import { Type, type Static } from 'typebox';
import { adminSchemas, ErrorSchema, Nullable, TimeOfDay, Timestamp, Uuid } from '../kernel/schemas.ts';
import {
  ExceptionKindInput,
  ExceptionKindSchema,
  holidayRuleSchema,
  MovedToDescription,
  WasteCollectionExceptionSchema,
} from '../domain/city-model/schemas.ts';
import { HOLIDAY_ACTIONS } from '../domain/collection-calendar.ts';
import { FRENCH_WEEKDAYS } from '../kernel/dates.ts';
import { HOLIDAY_KEYS } from '../kernel/holidays.ts';

export { ErrorSchema };

export const PlaceParamsSchema = Type.Object({
  cityId: Uuid('City id'),
  placeId: Uuid('Collection place id (a place of that city)'),
});
export type PlaceParams = Static<typeof PlaceParamsSchema>;

const CalendarDate = (description: string) =>
  Type.String({ format: 'date', examples: ['2026-12-25'], description });

export const CollectionsQuerySchema = Type.Object({
  from: Type.Optional(CalendarDate('First day, inclusive, `YYYY-MM-DD` in the city\'s time zone. Default: today there.')),
  to: Type.Optional(
    CalendarDate('Last day, inclusive. Default: `from` + 30 days. At most 365 days after `from` (366 days in all).'),
  ),
});
export type CollectionsQuery = Static<typeof CollectionsQuerySchema>;

export const PlaceCollectionsQuerySchema = Type.Object({
  ...CollectionsQuerySchema.properties,
  include: Type.Optional(
    Type.Literal('cancelled', {
      description: '`cancelled` also lists the collections removed (by an exception or a holiday rule), status `CANCELLED`, on their own day',
    }),
  ),
});
export type PlaceCollectionsQuery = Static<typeof PlaceCollectionsQuerySchema>;

export const IcsQuerySchema = Type.Object({
  alarm: Type.Optional(
    TimeOfDay(
      'Adds to each collection a `VALARM` (display) at this time, `HH:MM` in the city\'s time zone, the evening before ' +
        '(a trigger relative to the all-day event\'s start: `19:00` is `-PT5H`). Not on cancelled collections.',
    ),
  ),
  cancelled: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        '`false` leaves out the cancelled events, for clients that ignore `STATUS:CANCELLED` (Home Assistant\'s ' +
        'waste_collection_schedule shows them as collections). Default `true`.',
    }),
  ),
  wasteTypeId: Type.Optional(
    Type.Array(Uuid(), {
      maxItems: 50,
      description: 'Repeatable: keeps the collections of these waste types only (one feed per bin). Each must be a waste type of the city: else 400.',
    }),
  ),
});
export type IcsQuery = Static<typeof IcsQuerySchema>;

export const OccurrenceSchema = Type.Object({
  date: Type.String({ format: 'date', description: 'Day of the collection, `YYYY-MM-DD` in the city\'s time zone' }),
  wasteTypeId: Type.String({ format: 'uuid' }),
  wasteTypeName: Type.String(),
  color: Type.Union([Type.String(), Type.Null()], { description: 'The waste type\'s color, or null' }),
  holiday: Type.Union([Type.String(), Type.Null()], {
    description: 'Name of the French legal public holiday falling that day (`Noël`, `Jour de l\'an`, …), or null',
    examples: ['Noël'],
  }),
  status: Type.Union([Type.Literal('PLANNED'), Type.Literal('MOVED'), Type.Literal('ADDED'), Type.Literal('CANCELLED')], {
    description:
      '`PLANNED` (the weekly rules), `MOVED` (an exception or a holiday rule moved it here from `originalDate`), ' +
      '`ADDED` (an exception adds it), `CANCELLED` (removed; listed only with `include=cancelled`, on its own day)',
  }),
  originalDate: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'For a `MOVED` collection, the day it was planned for (`YYYY-MM-DD`); else null',
  }),
  note: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why it is not as planned: the exception\'s name and description, or the holiday rule\'s French wording ' +
      '(`Reportée du vendredi 25 décembre (Noël)`, `Pas de collecte le vendredi 1er mai (Fête du Travail)`); else null',
    examples: ['Reportée du vendredi 25 décembre (Noël)'],
  }),
});

export const OccurrenceListSchema = Type.Array(OccurrenceSchema, {
  description: 'Collections sorted by date, then waste type name (French collation); one per day and waste type.',
});

export const IcsResponseSchema = {
  description:
    'RFC 5545 calendar (`text/calendar; charset=utf-8`) with a strong `ETag`; `If-None-Match` answers 304.',
  content: { 'text/calendar': { schema: Type.String() } },
};

/** No body at all (not even `null`): described for the OpenAPI document only. */
export const NotModifiedSchema = { description: 'Not modified: the calendar is the one the client holds (same `ETag`); no body.' };

// The admin API's exceptions (docs/api.md, the admin API; collections that move and service notices): the public shape, the import bundle's field names, plus
// the kind, the day a MOVE goes to and the place.

const exceptionFields = {
  dateFrom: Timestamp('CANCEL: first day without collection; MOVE: the day of the collection moved; ADD: the day added'),
  dateTo: Type.Optional(
    Nullable(Timestamp('CANCEL: last day, on or after dateFrom; null: the day of dateFrom only. MOVE and ADD: null')),
  ),
  wasteTypeId: Uuid('A waste type of the place’s city'),
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  kind: Type.Optional(ExceptionKindInput),
  movedTo: Type.Optional(Nullable(Timestamp(MovedToDescription))),
};
export const exceptionSchemas = adminSchemas(
  Type.Object({
    ...WasteCollectionExceptionSchema.properties,
    kind: ExceptionKindSchema,
    movedTo: Nullable(Timestamp(MovedToDescription)),
    placeId: Uuid('The collection place it belongs to'),
  }),
  exceptionFields,
  { id: 'Exception id' },
);
export type AdminException = Static<typeof exceptionSchemas.item>;
export type CreateExceptionInput = Static<typeof exceptionSchemas.create>;
export type ExceptionPatch = Static<typeof exceptionSchemas.patch>;

export const PlaceIdParams = Type.Object({ placeId: Uuid('Collection place id') });

// The admin preview of a place's collections (docs/api.md, the admin API): days and exceptions as the import bundle holds
// them (without ids, which a preview does not need), instead of the stored ones.

const PreviewDaySchema = Type.Object({
  id: Type.Optional(Uuid()),
  name: Type.Enum([...FRENCH_WEEKDAYS], { description: 'French weekday, lowercase' }),
  wasteTypeId: Uuid('A waste type of the place’s city'),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  biweekly: Type.Optional(Nullable(Type.Boolean())),
  startDate: Type.Optional(Nullable(Timestamp('First day the rule applies; required when biweekly'))),
});

const PreviewExceptionSchema = Type.Object({
  id: Type.Optional(Uuid()),
  ...exceptionFields,
});

export const PreviewBody = Type.Object(
  {
    collectionDays: Type.Optional(Type.Array(PreviewDaySchema, { maxItems: 200, description: 'Absent: the stored days' })),
    exceptions: Type.Optional(Type.Array(PreviewExceptionSchema, { maxItems: 500, description: 'Absent: the stored exceptions' })),
  },
  { description: 'The days and exceptions to preview the calendar with; nothing is stored' },
);
export type PreviewInput = Static<typeof PreviewBody>;

// The preview of a city group's holidays (docs/api.md, exceptions and holiday rules): what its holiday rules, stored or
// proposed, do to the collections of its places on each public holiday of the next twelve months.

export const CityGroupIdParams = Type.Object({ cityGroupId: Uuid('City group id') });

/** As many rules as a group may hold (the group's own limit, src/cities/admin-schemas.ts MAX_HOLIDAY_RULES). */
const MAX_PROPOSED_HOLIDAY_RULES = 500;

export const HolidayPreviewBody = Type.Object(
  {
    holidayRules: Type.Optional(
      Type.Array(holidayRuleSchema(Uuid('A waste type of one of the group’s cities; null: every waste type')), {
        maxItems: MAX_PROPOSED_HOLIDAY_RULES,
        description: 'The rules to preview, as `PATCH /admin/city-groups/{id}` takes them. Absent: the stored rules',
      }),
    ),
  },
  { description: 'The holiday rules to preview the group’s collections with; nothing is stored' },
);
export type HolidayPreviewInput = Static<typeof HolidayPreviewBody>;

const CalendarDay = (description: string) => Type.String({ format: 'date', examples: ['2026-12-25'], description });

const HolidayEffectSchema = Type.Object({
  wasteTypeId: Uuid(),
  wasteTypeName: Type.String(),
  cityId: Uuid('The waste type’s city'),
  cityName: Type.String(),
  action: Type.Enum([...HOLIDAY_ACTIONS], { description: 'What the rules do to that collection: the most specific rule, `KEEP` where none applies' }),
  places: Type.Integer({ minimum: 1, description: 'The group’s places of that city with a collection of that waste type planned that day (by their weekly days)' }),
  byException: Type.Integer({
    minimum: 0,
    description: 'Of those, the places whose collection that day an exception cancels or moves instead (an exception wins over the rules)',
  }),
  movedTo: Nullable(
    CalendarDay(
      'The day most of the collections the rules move land on (`NEXT_DAY`, `PREVIOUS_DAY`, `SHIFT_WEEK`), as the calendar engine computes it; ' +
        'null when they stay or are cancelled, or when each moved one merges with a collection already planned there',
    ),
  ),
});

const HolidayPreviewItemSchema = Type.Object({
  date: CalendarDay('The holiday, `YYYY-MM-DD`'),
  holiday: Type.Enum([...HOLIDAY_KEYS], { description: 'Its key, as holiday rules name it' }),
  name: Type.String({ examples: ['Noël'] }),
  cities: Type.Array(Type.Object({ id: Uuid(), name: Type.String() }), {
    description:
      'The group’s cities for which it is a public holiday, by name: all of them for a national one; for `vendredi-saint` and ' +
      '`saint-etienne`, those whose `holidayCalendar` is `FR-ALSACE-MOSELLE`',
  }),
  effects: Type.Array(HolidayEffectSchema, {
    description: 'One per waste type collected that day at one of the group’s places of a city observing the holiday, by city name then waste type name',
  }),
});

export const HolidayPreviewSchema = Type.Object({
  from: CalendarDay('First day looked at: today in the group’s cities’ time zone'),
  to: CalendarDay('Last day looked at: the day before the same date next year'),
  holidays: Type.Array(HolidayPreviewItemSchema, {
    description:
      'Each public holiday from `from` to `to`, by date: the national ones, and Alsace-Moselle’s two when a city of the group follows that calendar',
  }),
});
export type HolidayPreview = Static<typeof HolidayPreviewSchema>;
