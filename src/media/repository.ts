import type { Kysely, Selectable } from 'kysely';
import type { DB, MediaTable } from '../db/types.ts';

/** The columns a media answer needs: its metadata, and its sha256 for the entity tag and the kept bytes. */
const mediaColumns = ['id', 'filename', 'mime_type', 'size', 'width', 'height', 'alt', 'sha256', 'created_at'] as const;

export type MediaRow = Pick<Selectable<MediaTable>, (typeof mediaColumns)[number]>;

/** A media that may be served; a private one is as absent as an unknown one. */
export async function findPublicMedia(db: Kysely<DB>, id: string): Promise<MediaRow | null> {
  const row = await db.selectFrom('media').select(mediaColumns).where('id', '=', id).where('public', '=', true).executeTakeFirst();
  return row ?? null;
}
