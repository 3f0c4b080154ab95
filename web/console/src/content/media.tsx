// Media files as the console shows them: private ones too, fetched with the agent's token and shown from a data: URL,
// and uploads with their progress (XMLHttpRequest, the only browser API that reports an upload's progress).
import { useEffect, useState } from 'preact/hooks';
import { ApiError, bearer } from '../api.ts';
import { dataUrl, fetchPrivate } from '../private-file.ts';
import type { Media } from './types.ts';

/** The bytes of `/admin/media/:id/file` (its thumbnail with `thumb`), with the token. */
const fetchMedia = (id: string, thumb: boolean): Promise<Blob> => fetchPrivate(`/admin/media/${id}/file${thumb ? '?thumb=1' : ''}`);

/**
 * A media's thumbnail, fetched with the token (private media have no public address) and shown from a data: URL;
 * null while it loads or when it failed. Thumbnails are small: a data: URL costs little more than a blob URL.
 */
export function useThumbnail(media: Pick<Media, 'id' | 'thumbnailUrl' | 'updatedAt'>): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const key = media.thumbnailUrl ? `${media.id}:${media.updatedAt}` : null;
  useEffect(() => {
    if (!key) return setUrl(null);
    let live = true;
    fetchMedia(media.id, true)
      .then(dataUrl)
      .then(
        (made) => live && setUrl(made),
        () => live && setUrl(null),
      );
    return () => {
      live = false;
    };
  }, [key]);
  return url;
}

export function Thumbnail({ media }: { media: Media }) {
  const url = useThumbnail(media);
  if (!media.thumbnailUrl) {
    return (
      <span class="thumb thumb-file" aria-hidden="true">
        {media.mimeType === 'application/pdf' ? 'PDF' : 'Fichier'}
      </span>
    );
  }
  return url ? <img class="thumb" src={url} alt="" /> : <span class="thumb thumb-loading" aria-hidden="true" />;
}

/** Why an upload failed, in French: ours for a file too large or of a refused type (the server's names its fields), else the server's. */
function uploadFailure(status: number, body: string): ApiError {
  let message: string | null = null;
  try {
    message = (JSON.parse(body) as { message?: string }).message ?? null;
  } catch {
    // Not JSON: a proxy's page, or nothing.
  }
  if (status === 413) return new ApiError('Ce fichier est trop lourd pour la médiathèque\u00a0: réduisez-le, puis réessayez.', 413);
  if (status === 415) {
    return new ApiError('Ce type de fichier n’est pas accepté\u00a0: envoyez une image (PNG, JPEG, GIF, WebP, AVIF, SVG) ou un PDF.', 415);
  }
  if (status >= 500 || !message) return new ApiError('Le serveur rencontre un problème passager. Réessayez dans quelques instants.', status);
  return new ApiError(message, status);
}

export interface UploadFields {
  file: File;
  alt: string;
  public: boolean;
  cityGroupId: string | null;
}

/** POST /admin/media as multipart/form-data; `progress` gets 0 to 100 as the bytes leave. A 401 renews the token once. */
export async function uploadMedia(fields: UploadFields, progress: (percent: number) => void): Promise<Media> {
  const form = new FormData();
  form.append('alt', fields.alt);
  form.append('public', String(fields.public));
  if (fields.cityGroupId) form.append('cityGroupId', fields.cityGroupId);
  form.append('file', fields.file, fields.file.name);
  for (const renew of [false, true]) {
    const headers = await bearer(renew);
    if (!headers) break;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/admin/media');
      xhr.setRequestHeader('accept', 'application/json');
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) progress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      };
      xhr.upload.onload = () => progress(100);
      xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
      // A 413 may close the connection before its answer is read: the browser reports a network error.
      xhr.onerror = () => reject(new ApiError('L’envoi a été interrompu\u00a0: le fichier est peut-être trop lourd, ou la connexion a été coupée.', 0));
      xhr.send(form);
    });
    if (answer.status === 201) return JSON.parse(answer.body) as Media;
    if (answer.status !== 401) throw uploadFailure(answer.status, answer.body);
    progress(0);
  }
  throw new ApiError('Votre session a pris fin\u00a0: reconnectez-vous pour continuer.', 401);
}

/** The public address of a media's bytes, as the citizens' app loads it (a private media answers 404 there). */
export const publicMediaUrl = (id: string) => `/public/cms/media/${id}/file`;

/** « 1,2 Mo », « 350 ko ». */
export function fileSize(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })}\u00a0Mo`;
  return `${Math.max(1, Math.round(bytes / 1000)).toLocaleString('fr-FR')}\u00a0ko`;
}
