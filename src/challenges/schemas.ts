import { Type, type Static } from 'typebox';
import { DeviceId, ErrorSchema, Nullable, Uuid as UuidOf, Timestamp as TimestampOf } from '../kernel/schemas.ts';
import { BadgeSchema, ChallengeSchema } from '../domain/challenges.ts';

export { DeviceId, ErrorSchema };

const Uuid = UuidOf();
const Timestamp = TimestampOf('ISO 8601 UTC with milliseconds');

export const ChallengeListSchema = Type.Array(ChallengeSchema, {
  description: 'Available challenges (enabled, city ACTIF, now within [startDate, endDate], a null bound open), by `order` then name',
});

export const CityIdParamsSchema = Type.Object({ cityId: Uuid });

/** Client-generated device identifier (docs/api.md, Conventions): 8 to 128 letters, digits, `-` and `_`. */
export const DeviceIdParamsSchema = Type.Object({ deviceId: DeviceId });

export const CompleteChallengeBodySchema = Type.Object({
  deviceId: DeviceId,
  challengeId: Uuid,
  score: Type.Number({ minimum: 0, maximum: 100, description: 'Finite number from 0 to 100; a string is rejected' }),
});
export type CompleteChallengeBody = Static<typeof CompleteChallengeBodySchema>;

export const CompletionSchema = Type.Object(
  {
    id: Uuid,
    deviceId: Type.String(),
    challengeId: Uuid,
    score: Type.Number(),
    completedAt: Timestamp,
    challenge: Type.Object({
      id: Uuid,
      name: Type.String(),
      description: Nullable(Type.String()),
      badge: Type.Union([BadgeSchema, Type.Null()], { description: 'The badge earned: the challenge’s badge when the best score reaches its `passingScore`, else null' }),
    }),
  },
  { title: 'ChallengeCompletion', description: 'One record per device and challenge; it keeps the best score and when it was reached' },
);
export type CompletionApi = Static<typeof CompletionSchema>;

export const ProgressItemSchema = Type.Object(
  {
    challengeId: Uuid,
    challengeName: Type.String(),
    score: Type.Number(),
    completedAt: Timestamp,
    badge: Type.Union([BadgeSchema, Type.Null()], { description: 'The badge earned: the challenge’s badge when the best score reaches its `passingScore`, else null' }),
  },
  { title: 'UserProgress' },
);
export type ProgressItemApi = Static<typeof ProgressItemSchema>;

export const ProgressListSchema = Type.Array(ProgressItemSchema, {
  description: 'Every challenge completed by the device, newest completedAt first; kept after a challenge ends or is disabled',
});

