import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/** A city group with one ACTIF and one NON_ACTIF city, two waste types and three quiz questions in the ACTIF city. */
export interface ChallengeWorld {
  groupId: string;
  cityId: string;
  inactiveCityId: string;
  wasteTypeIds: { glass: string; packaging: string };
  /** Quiz questions of the ACTIF city: q1 (order 1), q2 (order 2), q3 (order 3). */
  questionIds: { q1: string; q2: string; q3: string };
}

export async function insertChallengeWorld(db: Kysely<DB>): Promise<ChallengeWorld> {
  const groupId = randomUUID();
  const cityId = randomUUID();
  const inactiveCityId = randomUUID();
  await db
    .insertInto('city_group')
    .values({ id: groupId, name: 'Métropole Test', type: 'METROPOLE', code: 'MT', siren: '200000001', chat_enabled: false })
    .execute();
  await db
    .insertInto('city')
    .values([
      { id: cityId, name: 'Villeactive', country: 'France', status: 'ACTIF', time_zone: 'Europe/Paris', city_group_id: groupId, population: 1000 },
      { id: inactiveCityId, name: 'Villedormante', country: 'France', status: 'NON_ACTIF', time_zone: 'Europe/Paris', city_group_id: groupId, population: null },
    ])
    .execute();
  const glass = randomUUID();
  const packaging = randomUUID();
  await db
    .insertInto('waste_type')
    .values([
      { id: glass, city_id: cityId, name: 'Verre', color: '#2e7d32' },
      { id: packaging, city_id: cityId, name: 'Emballages', color: '#fbc02d' },
    ])
    .execute();
  const q1 = randomUUID();
  const q2 = randomUUID();
  const q3 = randomUUID();
  // Inserted out of order so that the ordering by `order` is really exercised.
  await db
    .insertInto('quiz_question')
    .values([
      { id: q3, city_id: cityId, material: 'Pot de yaourt', question: 'Où va le pot de yaourt ?', correct_waste_type_id: packaging, order: 3 },
      { id: q1, city_id: cityId, material: 'Bouteille en verre', question: 'Où va la bouteille ?', correct_waste_type_id: glass, order: 1 },
      { id: q2, city_id: cityId, material: 'Canette', question: 'Où va la canette ?', correct_waste_type_id: packaging, order: 2 },
    ])
    .execute();
  return { groupId, cityId, inactiveCityId, wasteTypeIds: { glass, packaging }, questionIds: { q1, q2, q3 } };
}

export interface ChallengeFixture {
  cityId: string;
  name: string;
  description?: string | null;
  enabled?: boolean;
  startDate?: string | null;
  endDate?: string | null;
  order?: number;
  requiredChallengeId?: string | null;
  /** The pass mark, 0 to 100; the column default (60) when omitted. */
  passingScore?: number;
  /** A badge for the challenge; omitted or null: none. */
  badge?: { name: string; description?: string | null; icon?: string | null; imageUrl?: string | null } | null;
  series?: { name: string; description?: string | null; order?: number; questionIds?: string[] }[];
}

export interface InsertedChallenge {
  id: string;
  badgeId: string | null;
  serieIds: string[];
}

export async function insertChallenge(db: Kysely<DB>, fixture: ChallengeFixture): Promise<InsertedChallenge> {
  const id = randomUUID();
  await db
    .insertInto('challenge')
    .values({
      id,
      city_id: fixture.cityId,
      name: fixture.name,
      description: fixture.description ?? null,
      enabled: fixture.enabled ?? true,
      start_date: fixture.startDate ?? null,
      end_date: fixture.endDate ?? null,
      order: fixture.order ?? 0,
      required_challenge_id: fixture.requiredChallengeId ?? null,
      ...(fixture.passingScore === undefined ? {} : { passing_score: fixture.passingScore }),
    })
    .execute();
  let badgeId: string | null = null;
  if (fixture.badge) {
    badgeId = randomUUID();
    await db
      .insertInto('badge')
      .values({
        id: badgeId,
        challenge_id: id,
        name: fixture.badge.name,
        description: fixture.badge.description ?? null,
        icon: fixture.badge.icon ?? null,
        image_url: fixture.badge.imageUrl ?? null,
      })
      .execute();
  }
  const serieIds: string[] = [];
  for (const serie of fixture.series ?? []) {
    const serieId = randomUUID();
    serieIds.push(serieId);
    await db
      .insertInto('serie')
      .values({ id: serieId, challenge_id: id, name: serie.name, description: serie.description ?? null, order: serie.order ?? 0 })
      .execute();
    if (serie.questionIds?.length) {
      await db
        .insertInto('serie_question')
        .values(serie.questionIds.map((quizQuestionId) => ({ serie_id: serieId, quiz_question_id: quizQuestionId })))
        .execute();
    }
  }
  return { id, badgeId, serieIds };
}

export async function setChallengeEnabled(db: Kysely<DB>, challengeId: string, enabled: boolean): Promise<void> {
  await db.updateTable('challenge').set({ enabled }).where('id', '=', challengeId).execute();
}
