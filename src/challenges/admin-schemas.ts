import { Type, type Static } from 'typebox';
import { BadgeSchema, ChallengeQuizQuestionSchema, ChallengeSchema } from '../domain/challenges.ts';
import { adminSchemas, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

/**
 * The admin API's quiz questions, challenges, badges and series (docs/api.md, the admin API): the public shapes, the import
 * bundle's field names (`quizQuestionIds`), plus the parent each belongs to.
 */

const Text = NonBlank;
const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const Order = Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Position in the public lists; 0 when absent' }));

// Quiz questions.

export const quizQuestionSchemas = adminSchemas(
  Type.Object({ ...ChallengeQuizQuestionSchema.properties, cityId: Uuid('The city it belongs to') }),
  { material: Text(200), question: Text(1000), correctWasteTypeId: Uuid('A waste type of the same city'), order: Order },
  { id: 'Quiz question id' },
);
export type AdminQuizQuestion = Static<typeof quizQuestionSchemas.item>;
export type CreateQuizQuestionInput = Static<typeof quizQuestionSchemas.create>;
export type QuizQuestionPatch = Static<typeof quizQuestionSchemas.patch>;

// Badges and series.

export const badgeSchemas = adminSchemas(
  Type.Object({ ...BadgeSchema.properties, challengeId: Uuid('The challenge it rewards') }),
  { name: Text(200), description: OptionalText(2000), icon: OptionalText(200), imageUrl: OptionalText(2000) },
  { id: 'Badge id' },
);
export type AdminBadge = Static<typeof badgeSchemas.item>;
export type CreateBadgeInput = Static<typeof badgeSchemas.create>;
export type BadgePatch = Static<typeof badgeSchemas.patch>;

export const serieSchemas = adminSchemas(
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    order: Type.Number(),
    quizQuestionIds: Type.Array(Uuid(), { description: 'Quiz questions of the challenge’s city, in their public order (`order`, then material)' }),
    challengeId: Uuid('The challenge it belongs to'),
  }),
  {
    name: Text(200),
    description: OptionalText(2000),
    order: Order,
    quizQuestionIds: Type.Optional(
      Type.Array(Uuid(), { maxItems: 200, description: 'Quiz questions of the challenge’s city, each once; replaces the whole list; [] when absent' }),
    ),
  },
  { id: 'Serie id' },
);
export type AdminSerie = Static<typeof serieSchemas.item>;
export type CreateSerieInput = Static<typeof serieSchemas.create>;
export type SeriePatch = Static<typeof serieSchemas.patch>;

// Challenges.

const { series: _series, badge: _badge, ...challengeFields } = ChallengeSchema.properties;

export const challengeSchemas = adminSchemas(
  Type.Object({
    ...challengeFields,
    badge: Nullable(BadgeSchema),
    series: Type.Array(serieSchemas.item, { description: 'Its series by `order`, then name; written at /admin/challenges/{id}/series' }),
    cityId: Uuid('The city it belongs to'),
  }),
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
  { id: 'Challenge id', description: 'Its badge and series are written at their own paths' },
);
export type AdminChallenge = Static<typeof challengeSchemas.item>;
export type CreateChallengeInput = Static<typeof challengeSchemas.create>;
export type ChallengePatch = Static<typeof challengeSchemas.patch>;
