// Files only agents may read (a private media, a request's photo): fetched with the token and shown from a data: URL,
// since the CSP's img-src allows 'self' and data:, not blob:, and an <img> cannot send the Authorization header.
import { ApiError, bearer } from './api.ts';

/** The bytes at `url`, with the token; a 401 renews it once. */
export async function fetchPrivate(url: string): Promise<Blob> {
  for (const renew of [false, true]) {
    const headers = await bearer(renew);
    if (!headers) break;
    const response = await fetch(url, { headers, credentials: 'same-origin' });
    if (response.ok) return response.blob();
    if (response.status !== 401) throw new ApiError(`Erreur ${response.status}.`, response.status);
  }
  throw new ApiError('Votre session a pris fin\u00a0: reconnectez-vous pour continuer.', 401);
}

/** A blob as a data: URL. */
export function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
