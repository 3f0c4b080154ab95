import { Type, type Static, type TSchema } from 'typebox';
import { CityGroupRefSchema, CityNoticeFields, Nullable, Timestamp, Uuid, WasteTypeDetailDisplayFields, WasteTypeDisplayFields } from '../../kernel/schemas.ts';
import { ChallengeSchema } from '../challenges.ts';
import { EXCEPTION_KINDS, HOLIDAY_ACTIONS, MAX_MOVE_DAYS } from '../collection-calendar.ts';
import { HOLIDAY_CALENDARS, HOLIDAY_KEYS } from '../../kernel/holidays.ts';

/**
 * The published city (docs/api.md, conventions; rate limits): a city with everything nested, as GET /public/cities serves it.
 * It is the model several areas read, not only the cities routes: the calendar and the chat assistant answer
 * from it, so it lives in the kernel with its read (read.ts), the queries (repository.ts) and the mapper.
 */

const HexColor = Type.String({ examples: ['#F2C500'] });

export const WasteTypeDetailSchema = Type.Object({
  id: Uuid(),
  material: Type.String(),
  ...WasteTypeDetailDisplayFields,
});

export const WasteTypeSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  ...WasteTypeDisplayFields(HexColor),
  details: Type.Array(WasteTypeDetailSchema, { description: 'Ordered by material' }),
});

export const WasteCollectionDaySchema = Type.Object({
  id: Uuid(),
  name: Type.String({ description: 'French weekday, lowercase (lundi … dimanche)', examples: ['mardi'] }),
  wasteTypeId: Uuid(),
  description: Nullable(Type.String()),
  biweekly: Nullable(Type.Boolean()),
  startDate: Nullable(Timestamp('First day the rule applies (a calendar day in the city’s time zone)')),
});

export const WasteCollectionExceptionSchema = Type.Object({
  id: Uuid(),
  dateFrom: Timestamp(),
  dateTo: Nullable(Timestamp()),
  wasteTypeId: Uuid(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
});

// What section 16 adds to the records of the bundle and the admin API (GET /public/cities keeps the seed's shapes).

const EXCEPTION_KIND_DESCRIPTION =
  '`CANCEL` removes the collections of its waste type from `dateFrom` to `dateTo`; `MOVE` has the collection of ' +
  '`dateFrom` take place on `movedTo` instead; `ADD` adds a collection on `dateFrom` that the weekly rules lack';

export const ExceptionKindSchema = Type.Enum([...EXCEPTION_KINDS], { description: EXCEPTION_KIND_DESCRIPTION });

/** The kind of a record written: CANCEL when absent. */
export const ExceptionKindInput = Type.Enum([...EXCEPTION_KINDS], { description: `${EXCEPTION_KIND_DESCRIPTION}. CANCEL when absent` });

export const MovedToDescription =
  `MOVE only (null otherwise): the day the collection takes place instead, a day-timestamp like dateFrom, another day ` +
  `at most ${MAX_MOVE_DAYS} days before or after it`;

export const HolidayCalendarSchema = Type.Enum(
  [...HOLIDAY_CALENDARS],
  {
    description:
      'The city’s public holidays: `FR`, the eleven national ones, or `FR-ALSACE-MOSELLE`, which adds Good Friday ' +
      '(`vendredi-saint`) and 26 December (`saint-etienne`), for collections and for open-now',
  },
);

/** A city group's holiday rule (section 16); `id` is the schema of a waste type's id (the bundle's or the API's). */
export function holidayRuleSchema<Id extends TSchema>(id: Id) {
  return Type.Object({
    holiday: Type.Enum(['*', ...HOLIDAY_KEYS], {
      description: '`*` (every public holiday of the city’s calendar) or a holiday key; a key wins over `*`',
    }),
    wasteTypeId: Nullable(id),
    action: Type.Enum(
      [...HOLIDAY_ACTIONS],
      {
        description:
          '`KEEP` (as usual, the default), `CANCEL`, `NEXT_DAY` / `PREVIOUS_DAY` (the next / previous day that is ' +
          'neither a Sunday nor a public holiday), `SHIFT_WEEK` (it and every later collection of its waste type up to ' +
          'the week’s Saturday move one day later)',
      },
    ),
  });
}

export const AttachedLocationSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  reference: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
});

export const WasteCollectionPlaceSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  collectionDays: Type.Array(WasteCollectionDaySchema, { description: 'Monday to Sunday' }),
  exceptions: Type.Array(WasteCollectionExceptionSchema, { description: 'Ordered by dateFrom' }),
  attachedLocations: Type.Array(AttachedLocationSchema),
});

export const RecyclingPointSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  address: Nullable(Type.String()),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  openingHours: Nullable(Type.String()),
});

export const QuizQuestionSchema = Type.Object({
  id: Uuid(),
  material: Type.String(),
  question: Type.String(),
  correctWasteTypeId: Uuid(),
  order: Type.Number(),
});

export const CitySchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    country: Type.String(),
    population: Nullable(Type.Number()),
    status: Type.Union([Type.Literal('ACTIF'), Type.Literal('NON_ACTIF')]),
    ...CityNoticeFields,
    cityGroup: Nullable(CityGroupRefSchema),
    wasteTypes: Type.Array(WasteTypeSchema),
    wasteCollectionPlaces: Type.Array(WasteCollectionPlaceSchema),
    challenges: Type.Array(ChallengeSchema, { description: 'The same list as GET /public/challenges/:cityId' }),
    recyclingPoints: Type.Array(RecyclingPointSchema),
    quizQuestions: Type.Array(QuizQuestionSchema, { description: 'Ordered by order' }),
  },
  { $id: 'City' },
);

export type CityApi = Static<typeof CitySchema>;
export type WasteTypeApi = Static<typeof WasteTypeSchema>;
export type WasteCollectionPlaceApi = Static<typeof WasteCollectionPlaceSchema>;
