// A request's photos: their admin URLs need the agent's token, so each is fetched and shown from a data: URL
// (private-file.ts), with a text alternative saying whose photo it is.
import { useEffect, useState } from 'preact/hooks';
import { dataUrl, fetchPrivate } from '../private-file.ts';
import type { AdminRequest } from '../types.ts';

function Photo({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setSrc(null);
    setFailed(false);
    fetchPrivate(url)
      .then(dataUrl)
      .then(
        (made) => live && setSrc(made),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [url]);
  if (failed) return <p class="muted">Cette photo n’a pas pu être chargée.</p>;
  if (!src) return <p class="muted">Chargement de la photo…</p>;
  return <img src={src} alt={alt} loading="lazy" />;
}

export function RequestPhotos({ request }: { request: Pick<AdminRequest, 'photos' | 'reference'> }) {
  const count = request.photos.length;
  return (
    <ul class="request-photos">
      {request.photos.map((photo, i) => (
        <li key={photo.id}>
          <Photo url={photo.url} alt={`Photo ${count > 1 ? `${i + 1} sur ${count} ` : ''}jointe par l’habitant à la demande ${request.reference}`} />
        </li>
      ))}
    </ul>
  );
}
