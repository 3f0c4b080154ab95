import { Type, type Static } from 'typebox';
import { NonBlank, Uuid } from '../kernel/schemas.ts';

export const CityParamsSchema = Type.Object({ cityId: Uuid('City id') });
export type CityParams = Static<typeof CityParamsSchema>;

export const SortingGuideQuerySchema = Type.Object({
  q: NonBlank(200, 'What the citizen typed: a material, an object, a waste type (1 to 200 characters, not only spaces)'),
});
export type SortingGuideQuery = Static<typeof SortingGuideQuerySchema>;

export const SortingGuideResultSchema = Type.Object({
  material: Type.String({ description: 'The material found, or the waste type\'s name when the waste type itself matched' }),
  wasteTypeId: Type.String({ format: 'uuid' }),
  wasteTypeName: Type.String(),
  instructions: Type.Union([Type.String(), Type.Null()], { description: 'The material\'s own instructions, else its waste type\'s' }),
  recyclingPointIds: Type.Array(Type.String({ format: 'uuid' }), {
    description: 'The city\'s recycling points that take this waste type, by name',
  }),
});

export const AnalyticsQuerySchema = Type.Object({
  cityGroupId: Type.Optional(Uuid('One city group; without it, every group of the agent (a super admin: every city)')),
  from: Type.Optional(Type.String({ description: 'First day, `YYYY-MM-DD` (default: 29 days before `to`)' })),
  to: Type.Optional(Type.String({ description: 'Last day, `YYYY-MM-DD` (default: today, Europe/Paris)' })),
});
export type AnalyticsQuery = Static<typeof AnalyticsQuerySchema>;

const QueryCountSchema = Type.Object({
  query: Type.String({ description: 'The query as counted: folded (case, accents), punctuation removed, up to 100 characters' }),
  count: Type.Integer({ minimum: 1 }),
});

export const AnalyticsDaySchema = Type.Object({
  day: Type.String({ description: '`YYYY-MM-DD`, each city\'s own calendar day' }),
  topQueries: Type.Array(QueryCountSchema, { description: 'The most searched queries of the day, most first (up to 20)' }),
  notFound: Type.Array(QueryCountSchema, { description: 'The searches that found nothing, most first (up to 20)' }),
  chatTopics: Type.Array(Type.Object({ topic: Type.String(), count: Type.Integer() }), {
    description: 'What the chat assistant was asked that day, by topic (the kind of question), most first.',
  }),
  unanswered: Type.Array(Type.Object({ question: Type.String(), count: Type.Integer() }), {
    description: 'The questions the assistant answered « je ne sais pas », as their folded words, most first.',
  }),
});

export const RequestDaySchema = Type.Object({
  day: Type.String({ description: '`YYYY-MM-DD`, each city\'s own calendar day' }),
  typeCode: Type.String(),
  typeName: Type.String(),
  created: Type.Integer({ minimum: 0, description: 'Requests of the type created that day' }),
  closed: Type.Integer({ minimum: 0, description: 'Requests of the type closed that day (RESOLUE, REJETEE or ANNULEE)' }),
  medianHoursToClose: Type.Union([Type.Number(), Type.Null()], {
    description: 'The median time from creation to closing of the requests closed that day, in hours (one decimal); null when none closed',
  }),
});

export const AnalyticsSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  days: Type.Array(AnalyticsDaySchema, { description: 'Every day from `from` through `to`, in order' }),
  queryLabels: Type.Record(Type.String(), Type.String(), {
    description:
      'How the listed queries read as citizens typed them, to show instead of the folded `query`: lower case, accents and ' +
      'apostrophes kept (`{"capsule de cafe": "capsule de café"}`), from the latest search of its most counted day. A query ' +
      'missing here reads as it is (already without accents, or counted before labels were kept).',
  }),
  requests: Type.Array(RequestDaySchema, {
    description: 'Residents\' requests per day and type, the days and types with any created or closed, by day then type code',
  }),
});
export type Analytics = Static<typeof AnalyticsSchema>;
