import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { iso } from '../kernel/french.ts';
import type { Media } from './schemas.ts';
import { canThumbnail } from './thumbnails.ts';

export interface MediaRow {
  id: string;
  filename: string;
  mime_type: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  sha256: string;
  created_at: Date;
}

/** A media that may be served; a private one is as absent as an unknown one. */
export async function findPublicMedia(db: Kysely<DB>, id: string): Promise<MediaRow | null> {
  const row = await db
    .selectFrom('media')
    .select(['id', 'filename', 'mime_type', 'size', 'width', 'height', 'alt', 'sha256', 'created_at'])
    .where('id', '=', id)
    .where('public', '=', true)
    .executeTakeFirst();
  return row ?? null;
}

export function toMedia(row: MediaRow): Media {
  const base = `/public/cms/media/${row.id}`;
  return {
    id: row.id,
    filename: row.filename,
    mimeType: row.mime_type,
    size: row.size,
    width: row.width,
    height: row.height,
    alt: row.alt,
    url: `${base}/file`,
    thumbnailUrl: canThumbnail(row.mime_type) ? `${base}/thumbnail` : null,
    createdAt: iso(row.created_at)!,
  };
}
