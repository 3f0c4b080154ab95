import { iso } from '../kernel/french.ts';
import type { AdminMediaRow, MediaRow } from './repository.ts';
import type { AdminMedia, Media } from './schemas.ts';
import { canThumbnail } from './thumbnails.ts';

/** A media row as the API shows it (docs/api.md): its metadata and where its bytes are. */
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

/** A media as the admin API shows it: the public shape, and whether it is public, its group and its last change. */
export function toAdminMedia(row: AdminMediaRow): AdminMedia {
  return { ...toMedia(row), public: row.public, cityGroupId: row.city_group_id, updatedAt: iso(row.updated_at)! };
}
