import { randomUUID } from 'node:crypto';
import { ownedBy, ownerFound, type AdminStore } from '../auth/admin-store.ts';
import { errors } from '../kernel/errors.ts';
import * as repo from './admin-repository.ts';
import type { BadgeRow, ChallengeOwner } from './admin-repository.ts';
import type { AdminBadge, BadgePatch, CreateBadgeInput } from './admin-schemas.ts';

/**
 * The admin API's badges (CONTRACT section 13, permission CHALLENGES): a challenge's reward, its own resource as the
 * contract lists it ("challenges, series, badges"), created under its challenge and then read, changed and deleted
 * at `/admin/badges/:id`. A challenge has at most one (the bundle's `badge`, the database's unique key): a second
 * answers 409. The devices that completed the challenge show the badge as it is now.
 */

export const toAdminBadge = (row: BadgeRow): AdminBadge => ({
  id: row.id,
  name: row.name,
  description: row.description,
  icon: row.icon,
  imageUrl: row.image_url,
  challengeId: row.challenge_id,
});

const columns = (b: Omit<AdminBadge, 'id' | 'challengeId'>) => ({ name: b.name.trim(), description: b.description, icon: b.icon, image_url: b.imageUrl });

export const badgeStore: AdminStore<BadgeRow, AdminBadge, ChallengeOwner, CreateBadgeInput, BadgePatch> = {
  entity: 'badge',
  fixedParent: true,
  notFound: errors.badgeNotFound,
  parentNotFound: errors.adminChallengeNotFound,
  findParent: async (db, challengeId) => ownerFound(await repo.findChallengeOwner(db, challengeId)),
  find: async (db, id, options) => ownedBy(await repo.findBadge(db, id, options)),
  list: (db, challenge, page) => repo.listChallengeBadges(db, challenge!.challengeId, page),
  show: async (_db, rows) => rows.map(toAdminBadge),
  async insert(trx, { subject: challenge }, input) {
    const fields = { description: null, icon: null, imageUrl: null, ...input };
    const row = await repo.insertBadge(trx, randomUUID(), challenge!.challengeId, columns(fields));
    if (!row) throw errors.badgeTaken();
    return row;
  },
  update: (trx, { subject }, patch) => repo.updateBadge(trx, subject.row.id, columns({ ...subject.record, ...patch })),
  async remove(trx, { subject }) {
    await repo.deleteBadge(trx, subject.row.id);
  },
};
