// The MDX editor of posts and pages: a textarea with line numbers, the content checked by the server as one types
// (POST /admin/content/check, its fault shown at its line), a live preview drawn by the citizens' own renderer, and
// images inserted from the media library.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { currentUser, get, getAll, holds, post } from '../api.ts';
import { Problem } from '../ui.tsx';
import { Thumbnail, publicMediaUrl } from './media.tsx';
import type { ContentCheck as Check, Media, Site } from './types.ts';
import { Markdown } from '../../../shared/markdown.tsx';

/** The server's verdict on `content`, asked 400 ms after the last keystroke; only the latest answer counts. */
function useContentCheck(content: string): Check | null {
  const [check, setCheck] = useState<Check | null>(null);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      post<Check>('/admin/content/check', { content }).then(
        (answer) => ticket === latest.current && setCheck(answer),
        // Offline or session ended: no verdict (a save answers the same check anyway).
        () => ticket === latest.current && setCheck(null),
      );
    }, 400);
    return () => clearTimeout(timer);
  }, [content]);
  return check;
}

/**
 * The fault with its line and column, read from the compiler's « (5:1-5:6) » when the server could not name them, and
 * its sentence without the position it repeats.
 */
function located(check: Check): Check {
  let { line, column } = check;
  const position = check.message?.match(/\((\d+):(\d+)(?:-\d+:\d+)?\)/);
  if (line === null && position) [line, column] = [Number(position[1]), Number(position[2])];
  const message = `le contenu ${(check.message ?? 'n’est pas du MDX valide.').replace(/\s*\(ligne \d+, colonne \d+\)/, '')}`;
  return { ...check, line, column, message };
}

/** The offset of the start of a 1-based line and column in `text`. */
function offsetOf(text: string, line: number, column = 1): number {
  let offset = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + Math.max(0, column - 1));
}

/**
 * Whose images a post or page may show: its group's (a post's own group, a page's site's group). A super admin lists
 * every group's media; the picker keeps the content's group alone, so that a commune's page never shows another's.
 */
export type MediaScope = { groupId: string | null } | { siteId: string };

/** The group of a scope: a page's is its site's, read when the picker opens. */
async function groupOf(scope: MediaScope): Promise<string | null> {
  return 'groupId' in scope ? scope.groupId : (await get<Site>(`/admin/sites/${scope.siteId}`)).cityGroupId;
}

/** How the picker names an image: by what it shows (its alt text), its file name beside it. */
const imageName = (m: Media) => m.alt?.trim() || m.filename;

/** The media library's images to insert, of the content's group, by name: public ones usable at once, private ones flagged. */
function MediaPicker({ scope, onPick, onClose }: { scope: MediaScope | null; onPick: (media: Media) => void; onClose: () => void }) {
  const [media, setMedia] = useState<Media[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const titleId = useId();
  const scopeKey = scope ? JSON.stringify(scope) : null;
  useEffect(() => {
    Promise.all([getAll<Media>('/admin/media'), scope ? groupOf(scope) : undefined]).then(([all, groupId]) => {
      const images = all.filter((m) => m.thumbnailUrl !== null && (groupId === undefined || m.cityGroupId === groupId));
      setMedia(images.sort((a, b) => imageName(a).localeCompare(imageName(b), 'fr')));
    }, setError);
  }, [scopeKey]);
  return (
    <div class="picker card" role="group" aria-labelledby={titleId}>
      <div class="picker-head">
        <h3 id={titleId}>Insérer une image de la médiathèque</h3>
        <button type="button" class="button small secondary" onClick={onClose}>
          Fermer
        </button>
      </div>
      {error !== null && <Problem error={error} />}
      {media === null && error === null && <p class="muted">Chargement des images…</p>}
      {media?.length === 0 && <p class="muted">Aucune image de cette collectivité&nbsp;: ajoutez-en depuis la médiathèque.</p>}
      {media && media.length > 0 && (
        <ul class="media-grid small">
          {media.map((m) => (
            <li key={m.id}>
              <button type="button" class="media-pick" onClick={() => onPick(m)}>
                <Thumbnail media={m} />
                <span>
                  {imageName(m)}
                  {m.alt?.trim() && <span class="muted media-file">{m.filename}</span>}
                  {!m.public && <span class="tag">privée&nbsp;: invisible des habitants</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function MdxEditor({
  label,
  value,
  onInput,
  mediaScope = null,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  /** Whose images the picker offers (null: every image the agent may see). */
  mediaScope?: MediaScope | null;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const [picking, setPicking] = useState(false);
  const check = useContentCheck(value);
  const fault = check && !check.valid ? located(check) : null;
  const lines = value.split('\n').length;
  const mayPickMedia = holds(currentUser(), 'CMS');

  const goTo = (line: number, column = 1) => {
    const el = area.current;
    if (!el) return;
    const at = offsetOf(value, line, column);
    el.focus();
    el.setSelectionRange(at, at);
    // Bring the line into view: its top, as the line height of the textarea draws it.
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || 20;
    el.scrollTop = Math.max(0, (line - 3) * lineHeight);
  };

  const insert = (text: string) => {
    const el = area.current;
    const start = el ? el.selectionStart : value.length;
    const end = el ? el.selectionEnd : value.length;
    // An image on a line of its own: a paragraph of its own in the citizens' app.
    const before = value.slice(0, start);
    const prefix = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    const next = `${before}${prefix}${text}\n\n${value.slice(end).replace(/^\n+/, '')}`;
    onInput(next);
    const caret = before.length + prefix.length + text.length + 2;
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(caret, caret);
    });
  };

  return (
    <div class="mdx">
      <div class="mdx-write">
        <label for={id}>{label}</label>
        <p class="hint" id={`${id}-hint`}>
          Markdown&nbsp;: **gras**, *italique*, ## titre, - liste, [lien](https://…). Encadrés&nbsp;: une ligne :::tip, :::warning ou :::info, le texte, puis
          une ligne :::.
        </p>
        <div class={`mdx-frame${fault ? ' invalid' : ''}`}>
          <div class="mdx-gutter" ref={gutter} aria-hidden="true">
            {Array.from({ length: lines }, (_, i) => (
              <span key={i} class={fault?.line === i + 1 ? 'error-line' : undefined}>
                {i + 1}
              </span>
            ))}
          </div>
          <textarea
            id={id}
            ref={area}
            value={value}
            rows={18}
            wrap="off"
            spellcheck
            aria-describedby={`${id}-hint ${id}-check`}
            aria-invalid={fault ? true : undefined}
            onInput={(e) => onInput(e.currentTarget.value)}
            onScroll={(e) => {
              if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
            }}
          />
        </div>
        <div id={`${id}-check`} aria-live="polite">
          {fault ? (
            <p class="field-error mdx-fault">
              {fault.line ? `Ligne ${fault.line}${fault.column ? `, colonne ${fault.column}` : ''}\u00a0: ` : 'Erreur\u00a0: '}
              {fault.message}{' '}
              {fault.line && (
                <button type="button" class="link-button" onClick={() => goTo(fault.line!, fault.column ?? 1)}>
                  Aller à la ligne {fault.line}
                </button>
              )}
            </p>
          ) : check?.valid ? (
            <p class="mdx-ok">Contenu valide.</p>
          ) : null}
        </div>
        {mayPickMedia && (
          <p>
            <button type="button" class="button small secondary" aria-expanded={picking} onClick={() => setPicking(!picking)}>
              Insérer une image
            </button>
          </p>
        )}
        {picking && (
          <MediaPicker
            scope={mediaScope}
            onClose={() => setPicking(false)}
            onPick={(m) => {
              setPicking(false);
              insert(`![${(m.alt ?? '').replace(/[[\]]/g, '')}](${publicMediaUrl(m.id)})`);
            }}
          />
        )}
      </div>
      <section class="mdx-preview" aria-labelledby={`${id}-preview`}>
        <h2 id={`${id}-preview`} class="preview-title">
          Aperçu
        </h2>
        <div class="preview-page">
          <Markdown source={value} />
        </div>
      </section>
    </div>
  );
}
