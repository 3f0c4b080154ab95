import { iso } from '../kernel/french.ts';
import type { MediaRow } from './repository.ts';
import type { Media } from './schemas.ts';
import { canThumbnail } from './thumbnails.ts';

/** A media row as the API shows it (CONTRACT, media): its metadata and where its bytes are. */
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
