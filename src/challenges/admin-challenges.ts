import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, underCity, type AdminStore } from '../admin/store.ts';
import { challengeFaults, requirementFaults } from './challenge-rules.ts';
import { type CityOwner } from '../domain/cities.ts';
import { challengeFields, DEFAULT_PASSING_SCORE, toBadge } from '../domain/challenges.ts';
import { errors } from '../kernel/errors.ts';
import { lowercaseIds } from '../kernel/schemas.ts';
import { showSeries } from './admin-series.ts';
import * as repo from './admin-repository.ts';
import type { ChallengeRow } from './admin-repository.ts';
import type { AdminChallenge, ChallengePatch, CreateChallengeInput } from './admin-schemas.ts';

/**
 * The admin API's challenges (docs/api.md, the admin API, permission CHALLENGES): created under their city, then read,
 * changed and deleted at `/admin/challenges/:id`, every one whatever its availability (disabled, not started, ended).
 * A write checks the bundle's rules: `endDate` on or after `startDate`, and `requiredChallengeId` a challenge of the
 * same city whose requirements never lead back to this one. Its badge and series are shown with it and written at
 * their own paths. A challenge still required by another, or already completed by devices, is not deleted (409):
 * the database would silently free the first and erase the progress (and badges) of the second; disabling it keeps
 * both, as the import does.
 */

async function showChallenges(db: Kysely<DB>, rows: ChallengeRow[]): Promise<AdminChallenge[]> {
  const ids = rows.map((row) => row.id);
  const [badges, series, requiredNames] = await Promise.all([
    repo.badgesOf(db, ids),
    repo.seriesOf(db, ids).then((serieRows) => showSeries(db, serieRows)),
    repo.challengeNames(db, rows.flatMap((row) => (row.required_challenge_id ? [row.required_challenge_id] : []))),
  ]);
  const badgeOf = new Map(badges.map((b) => [b.challenge_id, b]));
  const seriesOf = Map.groupBy(series, (s) => s.challengeId);
  return rows.map((row) => {
    const badge = badgeOf.get(row.id);
    return {
      ...challengeFields(row, row.required_challenge_id === null ? null : requiredNames.get(row.required_challenge_id)),
      badge: badge ? toBadge(badge) : null,
      series: seriesOf.get(row.id) ?? [],
      cityId: row.city_id,
    };
  });
}

type ChallengeFields = Pick<AdminChallenge, 'name' | 'description' | 'enabled' | 'startDate' | 'endDate' | 'order' | 'requiredChallengeId' | 'passingScore'>;

/** The written challenge must pass the bundle's rules, its requirement kept within its city: 400 naming the field. */
async function assertValid(db: Kysely<DB>, id: string, cityId: string, challenge: ChallengeFields): Promise<void> {
  const required = challenge.requiredChallengeId;
  if (required !== null) await repo.lockRequirements(db);
  const [requiredOf, sameCity] = required === null
    ? [new Map<string, string | null>(), new Set<string>()]
    : await Promise.all([repo.requirementChain(db, required), repo.cityChallengeIds(db, cityId)]);
  assertNoFault([...challengeFaults(challenge), ...requirementFaults({ id, requiredChallengeId: required }, { requiredOf, sameCity })]);
}

const columns = (c: ChallengeFields) => ({
  name: c.name.trim(),
  description: c.description,
  enabled: c.enabled,
  start_date: c.startDate === null ? null : new Date(c.startDate),
  end_date: c.endDate === null ? null : new Date(c.endDate),
  order: c.order,
  required_challenge_id: c.requiredChallengeId,
  passing_score: c.passingScore,
});

export const challengeStore: AdminStore<ChallengeRow, AdminChallenge, CityOwner, CreateChallengeInput, ChallengePatch> = {
  entity: 'challenge',
  notFound: errors.adminChallengeNotFound,
  ...underCity(repo.findChallenge, repo.listCityChallenges, showChallenges),
  async insert(trx, { subject: city }, input) {
    const id = randomUUID();
    const fields: ChallengeFields = {
      description: null, enabled: true, startDate: null, endDate: null, order: 0, requiredChallengeId: null, passingScore: DEFAULT_PASSING_SCORE, ...lowercaseIds(input, 'requiredChallengeId'),
    };
    await assertValid(trx, id, city!.cityId, fields);
    return repo.insertChallenge(trx, id, city!.cityId, columns(fields));
  },
  async update(trx, { subject }, patch) {
    const fields = { ...subject.record, ...lowercaseIds(patch, 'requiredChallengeId') };
    await assertValid(trx, subject.row.id, subject.row.city_id, fields);
    return repo.updateChallenge(trx, subject.row.id, columns(fields));
  },
  async remove(trx, { subject }) {
    const requiring = await repo.requiringNames(trx, subject.row.id);
    if (requiring.length > 0) throw errors.challengeRequired(requiring);
    const completions = await repo.countCompletions(trx, subject.row.id);
    if (completions > 0) throw errors.challengeCompleted(completions);
    await repo.deleteChallenge(trx, subject.row.id);
  },
};
