// App paths inside a message's plain text (the assistant answers a report with `/signaler?type=…&placeId=…`), turned
// into in-app links: the text is cut into strings and link elements, never parsed as HTML.
import type { ComponentChildren } from 'preact';
import { Link, match } from '../shared/router.tsx';

/**
 * A path of the report form or of « Mes demandes », not inside a longer word or URL (`https://ailleurs.fr/signaler`
 * is left as text): up to the next space, quote, angle bracket or guillemet.
 */
const APP_PATH = /(^|[^\w/.:@-])(\/(?:signaler|mes-demandes)(?:[/?#][^\s"'<>«»()[\]]*)?)(?![\w-])/g;

/** The path as a link of this app, or null when it is none (another path, a parameter that is no UUID). */
function appHref(raw: string): { href: string; label: string } | null {
  let url: URL;
  try {
    url = new URL(raw, location.origin);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const href = `${path}${url.search}`;
  if (path === '/signaler') return { href, label: url.searchParams.has('type') ? 'Ouvrir le formulaire de signalement' : 'Signaler un problème' };
  if (path === '/mes-demandes') return { href, label: 'Mes demandes' };
  if (match('/mes-demandes/:requestId', path)) return { href, label: 'Voir ma demande' };
  return null;
}

/** The text with its app paths as links; a sentence's final punctuation stays text. */
export function withAppLinks(text: string): ComponentChildren[] {
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const found of text.matchAll(APP_PATH)) {
    // « …ici : /signaler?type=x. » — the full stop, comma or semicolon ends the sentence, not the path.
    const raw = found[2].replace(/[.,;:!?]+$/, '');
    const link = appHref(raw);
    if (!link) continue;
    // After the character that precedes it (no lookbehind: Safari before 16.4 would not parse the module).
    const start = found.index + found[1].length;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <Link key={start} href={link.href} class="app-link">
        {link.label}
      </Link>,
    );
    last = start + raw.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
