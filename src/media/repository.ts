import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, MediaTable } from '../db/types.ts';
import { sortByText } from '../kernel/french.ts';
import { recordsById } from '../db/records.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';

/** The columns a media answer needs: its metadata, and its sha256 for the entity tag and the kept bytes. */
const mediaColumns = ['id', 'filename', 'mime_type', 'size', 'width', 'height', 'alt', 'sha256', 'created_at'] as const;

export type MediaRow = Pick<Selectable<MediaTable>, (typeof mediaColumns)[number]>;

/** A media that may be served; a private one is as absent as an unknown one. */
export async function findPublicMedia(db: Kysely<DB>, id: string): Promise<MediaRow | null> {
  const row = await db.selectFrom('media').select(mediaColumns).where('id', '=', id).where('public', '=', true).executeTakeFirst();
  return row ?? null;
}

// The admin API's reads and writes (src/media/admin-media.ts): every column, the group and `public` included.

export type AdminMediaRow = Selectable<MediaTable>;

export type MediaValues = Omit<Insertable<MediaTable>, 'id' | 'created_at' | 'updated_at'>;

const media = recordsById('media');

/** One media, locked until the end of the transaction with `forUpdate`. */
export const findMedia = media.find;

/** One page of the media of `scope`'s groups (null: every media, those of no group included), by file name. */
export const listMedia = async (db: Kysely<DB>, page: PageRequest, scope: readonly string[] | null): Promise<{ rows: AdminMediaRow[]; total: number }> =>
  pageOf(sortByText(await media.within(db, 'city_group_id', scope), (m) => m.filename), page);

export const insertMedia = (db: Kysely<DB>, id: string, values: MediaValues, now: Date): Promise<AdminMediaRow> =>
  media.insert(db, { id, ...values, created_at: now, updated_at: now });
export const updateMedia = (db: Kysely<DB>, id: string, values: Partial<MediaValues>, now: Date): Promise<AdminMediaRow> =>
  media.update(db, id, { ...values, updated_at: now });
export const deleteMedia = media.remove;
