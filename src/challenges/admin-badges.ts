import { randomUUID } from 'node:crypto';
import { eachRow, removeRow, type AdminStore } from '../admin/store.ts';
import { toBadge } from '../domain/challenges.ts';
import { errors } from '../kernel/errors.ts';
import * as repo from './admin-repository.ts';
import { underChallenge } from './admin-series.ts';
import type { BadgeRow, ChallengeOwner } from './admin-repository.ts';
import type { AdminBadge, BadgePatch, CreateBadgeInput } from './admin-schemas.ts';

/**
 * The admin API's badges (docs/api.md, the admin API, permission CHALLENGES): a challenge's reward, its own resource as the
 * contract lists it ("challenges, series, badges"), created under its challenge and then read, changed and deleted
 * at `/admin/badges/:id`. A challenge has at most one (the bundle's `badge`, the database's unique key): a second
 * answers 409. The devices that completed the challenge show the badge as it is now.
 */

export const toAdminBadge = (row: BadgeRow): AdminBadge => ({ ...toBadge(row), challengeId: row.challenge_id });

const columns = (b: Omit<AdminBadge, 'id' | 'challengeId'>) => ({ name: b.name.trim(), description: b.description, icon: b.icon, image_url: b.imageUrl });

export const badgeStore: AdminStore<BadgeRow, AdminBadge, ChallengeOwner, CreateBadgeInput, BadgePatch> = {
  entity: 'badge',
  notFound: errors.badgeNotFound,
  ...underChallenge(repo.findBadge, repo.listChallengeBadges, eachRow(toAdminBadge)),
  async insert(trx, { subject: challenge }, input) {
    const fields = { description: null, icon: null, imageUrl: null, ...input };
    const row = await repo.insertBadge(trx, randomUUID(), challenge!.challengeId, columns(fields));
    if (!row) throw errors.badgeTaken();
    return row;
  },
  update: (trx, { subject }, patch) => repo.updateBadge(trx, subject.row.id, columns({ ...subject.record, ...patch })),
  remove: removeRow(repo.deleteBadge),
};
