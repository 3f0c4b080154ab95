import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { adminService, groupMovedTo, inGroup, underGroup, type AdminService, type AdminStore, type Versioned } from '../admin/store.ts';
import type { AdminAgent } from '../admin/agent.ts';
import { errors } from '../kernel/errors.ts';
import { toAdminMedia } from './mapper.ts';
import * as repo from './repository.ts';
import type { AdminMediaRow, MediaValues } from './repository.ts';
import type { AdminMedia, MediaPatch } from './schemas.ts';
import { removeMediaFiles, type StagedUpload, type UploadFacts } from './service.ts';

/**
 * The admin API's media (docs/api.md, the admin API), for agents holding CMS. A media belongs to a city group (the
 * `city_group_id` of migration 0007): an agent sees and changes those of its own groups, any other answers 404 as if
 * missing; one imported without a group is a super admin's. Uploaded through POST /admin/media (multipart, see
 * admin-routes.ts), then read, changed (`alt`, `public`, `filename`, `cityGroupId`) and deleted at `/admin/media/:id`.
 * adminService records each write's audit entry and the data_version bump in its transaction; the bytes follow the
 * row: moved into MEDIA_DIR once its insertion committed, removed from it once its deletion committed.
 */

/** What an upload inserts: the facts read from the bytes, and the form's fields. */
interface MediaCreate {
  facts: UploadFacts;
  alt: string | null;
  public: boolean;
}

export const mediaStore: AdminStore<AdminMediaRow, AdminMedia, { id: string }, MediaCreate, MediaPatch> = {
  entity: 'media',
  notFound: errors.mediaNotFound,
  ...underGroup,
  // The group is named by the upload's `cityGroupId` field, not by the URL.
  parentNotFound: () => errors.cityGroupNotFound('cityGroupId'),
  find: async (db, id, options) => inGroup(await repo.findMedia(db, id, options)),
  list: (db, _parent, page, scope) => repo.listMedia(db, page, scope),
  show: async (_db, rows) => rows.map(toAdminMedia),
  insert(trx, { subject: group, now }, { facts, alt, public: isPublic }) {
    const values: MediaValues = {
      filename: facts.filename,
      mime_type: facts.mimeType,
      size: facts.size,
      width: facts.width,
      height: facts.height,
      sha256: facts.sha256,
      alt,
      public: isPublic,
      city_group_id: group!.id,
    };
    return repo.insertMedia(trx, facts.id, values, now);
  },
  async update(trx, { subject, now, reachable }, patch) {
    const values: Partial<MediaValues> = {};
    if (patch.alt !== undefined) values.alt = patch.alt;
    if (patch.public !== undefined) values.public = patch.public;
    if (patch.filename !== undefined) values.filename = patch.filename;
    if (patch.cityGroupId !== undefined) values.city_group_id = await groupMovedTo(trx, { reachable }, patch.cityGroupId);
    return repo.updateMedia(trx, subject.row.id, values, now);
  },
  remove: (trx, { subject }) => repo.deleteMedia(trx, subject.row.id),
};

/** The form of an upload, once its file is staged and its fields read. */
export interface MediaUpload {
  staged: StagedUpload;
  alt: string | null;
  public: boolean;
  /** The group named in the form, if any. */
  cityGroupId: string | undefined;
}

export interface AdminMediaService extends AdminService<AdminMedia> {
  /** Stores an upload's row (201) and then moves its file into place; on any failure the staged file is removed. */
  upload(db: Kysely<DB>, agent: AdminAgent, upload: MediaUpload, now: Date): Promise<Versioned<AdminMedia>>;
}

/**
 * The group an upload belongs to: the one named, or the agent's only group. An agent of several groups (or of none:
 * a super admin) must say which.
 */
function uploadGroup(agent: AdminAgent, named: string | undefined): string {
  if (named !== undefined) return named;
  if (agent.cityGroupIds.length === 1) return agent.cityGroupIds[0];
  throw errors.mediaCityGroupRequired();
}

export function createAdminMediaService(mediaDir: string): AdminMediaService {
  const base = adminService(mediaStore);
  return {
    ...base,

    async upload(db, agent, upload, now) {
      const { staged } = upload;
      try {
        const input: MediaCreate = { facts: staged.facts, alt: upload.alt, public: upload.public };
        const created = await base.create(db, agent, uploadGroup(agent, upload.cityGroupId), input as never, now);
        await staged.commit();
        return created;
      } finally {
        // After a commit the temporary name no longer exists; before one, this is what removes the bytes.
        await staged.discard();
      }
    },

    async remove(db, agent, id, ifMatch, now) {
      const dataVersion = await base.remove(db, agent, id, ifMatch, now);
      // Only once the deletion committed: a refused or failed one keeps the file its row still names.
      await removeMediaFiles(mediaDir, id);
      return dataVersion;
    },
  };
}
