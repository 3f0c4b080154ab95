import { Type, type Static } from 'typebox';
import { BadgeSchema, ChallengeQuizQuestionSchema, ChallengeSchema } from '../domain/challenges.ts';
import { Envelope } from '../kernel/pagination.ts';
import { NonBlank, Nullable, Timestamp, Uuid, writeBodies } from '../kernel/schemas.ts';

/**
 * The admin API's quiz questions, challenges, badges and series (CONTRACT section 13): the public shapes, the import
 * bundle's field names (`quizQuestionIds`), plus the parent each belongs to.
 */

const Text = NonBlank;
const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const Order = Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Position in the public lists; 0 when absent' }));

// Quiz questions.

export const AdminQuizQuestionSchema = Type.Object({
  ...ChallengeQuizQuestionSchema.properties,
  cityId: Uuid('The city it belongs to'),
});
export type AdminQuizQuestion = Static<typeof AdminQuizQuestionSchema>;
export const AdminQuizQuestionListSchema = Envelope(AdminQuizQuestionSchema);

export const { create: CreateQuizQuestionBody, patch: PatchQuizQuestionBody } = writeBodies({
  material: Text(200),
  question: Text(1000),
  correctWasteTypeId: Uuid('A waste type of the same city'),
  order: Order,
});
export type CreateQuizQuestionInput = Static<typeof CreateQuizQuestionBody>;
export type QuizQuestionPatch = Static<typeof PatchQuizQuestionBody>;
export const QuizQuestionIdParams = Type.Object({ id: Uuid('Quiz question id') });

// Badges and series.

export const AdminBadgeSchema = Type.Object({
  ...BadgeSchema.properties,
  challengeId: Uuid('The challenge it rewards'),
});
export type AdminBadge = Static<typeof AdminBadgeSchema>;
export const AdminBadgeListSchema = Envelope(AdminBadgeSchema);

export const { create: CreateBadgeBody, patch: PatchBadgeBody } = writeBodies({
  name: Text(200),
  description: OptionalText(2000),
  icon: OptionalText(200),
  imageUrl: OptionalText(2000),
});
export type CreateBadgeInput = Static<typeof CreateBadgeBody>;
export type BadgePatch = Static<typeof PatchBadgeBody>;
export const BadgeIdParams = Type.Object({ id: Uuid('Badge id') });

export const AdminSerieSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  description: Nullable(Type.String()),
  order: Type.Number(),
  quizQuestionIds: Type.Array(Uuid(), { description: 'Quiz questions of the challenge’s city, in their public order (`order`, then material)' }),
  challengeId: Uuid('The challenge it belongs to'),
});
export type AdminSerie = Static<typeof AdminSerieSchema>;
export const AdminSerieListSchema = Envelope(AdminSerieSchema);

export const { create: CreateSerieBody, patch: PatchSerieBody } = writeBodies({
  name: Text(200),
  description: OptionalText(2000),
  order: Order,
  quizQuestionIds: Type.Optional(
    Type.Array(Uuid(), { maxItems: 200, description: 'Quiz questions of the challenge’s city, each once; replaces the whole list; [] when absent' }),
  ),
});
export type CreateSerieInput = Static<typeof CreateSerieBody>;
export type SeriePatch = Static<typeof PatchSerieBody>;
export const SerieIdParams = Type.Object({ id: Uuid('Serie id') });

// Challenges.

const { series: _series, badge: _badge, ...challengeFields } = ChallengeSchema.properties;

export const AdminChallengeSchema = Type.Object({
  ...challengeFields,
  badge: Nullable(BadgeSchema),
  series: Type.Array(AdminSerieSchema, { description: 'Its series by `order`, then name; written at /admin/challenges/{id}/series' }),
  cityId: Uuid('The city it belongs to'),
});
export type AdminChallenge = Static<typeof AdminChallengeSchema>;
export const AdminChallengeListSchema = Envelope(AdminChallengeSchema);

export const { create: CreateChallengeBody, patch: PatchChallengeBody } = writeBodies(
  {
    name: Text(200),
    description: OptionalText(2000),
    enabled: Type.Optional(Type.Boolean({ description: 'true when absent' })),
    startDate: Type.Optional(Nullable(Timestamp('Available from then; null: from now'))),
    endDate: Type.Optional(Nullable(Timestamp('Available until then, on or after startDate; null: no end'))),
    order: Order,
    requiredChallengeId: Type.Optional(Nullable(Uuid('A challenge of the same city a device must complete first; no cycles'))),
    passingScore: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100, description: 'The pass mark in %: the badge needs a best score at or above it; 60 when absent' }),
    ),
  },
  { description: 'Its badge and series are written at their own paths' },
);
export type CreateChallengeInput = Static<typeof CreateChallengeBody>;
export type ChallengePatch = Static<typeof PatchChallengeBody>;
export const ChallengeIdParams = Type.Object({ id: Uuid('Challenge id') });

export const CityParams = Type.Object({ cityId: Uuid('City id') });
export const ChallengeParams = Type.Object({ challengeId: Uuid('Challenge id') });
