// A widget's page (docs/widgets.md): one of the app's screens inside a commune's website, in a frame `/widget.js`
// drew. The page's query names the commune (`city`), a place (`place`, read by the calendar) and an accent (`color`); the shell pins the
// commune for the screens, themes them, keeps the app's links that the widget shows itself inside the frame (with
// the query, so that a reload keeps its commune and colour) and opens the others in the app in a new tab, leaves the
// focus where the resident is on the commune's page, and tells the page its height whenever it changes.
import { Component, render, type ComponentChildren, type FunctionComponent } from 'preact';
import '../styles.css';
import './embed.css';
import { setLinkPolicy, usePath } from '../../shared/router.tsx';
import { pinCity } from '../store.ts';
import { focusAfterFirstAction } from '../ui.tsx';
import { lightTint, readableAccent } from './theme.ts';

/** What every widget is drawn with: its commune (a place, when there is one, is read from the frame's query as it changes). */
export interface EmbedParams {
  cityId: string;
}

/** What the widget carries from one of its screens to the next: its commune and its colour. */
const CARRIED = ['city', 'color'] as const;

/** `href` inside the frame, with the widget's commune and colour added to its query. */
function carried(href: string): string {
  const url = new URL(href, location.origin);
  const here = new URLSearchParams(location.search);
  for (const key of CARRIED) if (!url.searchParams.has(key) && here.get(key)) url.searchParams.set(key, here.get(key)!);
  return url.pathname + url.search + url.hash;
}

/** The height of the content, sent to the commune's page (`/widget.js` sizes the frame to it). */
function reportHeight(): void {
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // Nothing but a number: any page may read it (the frame does not know which site framed it).
    parent.postMessage({ collecte: 'height', height }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}

class Boundary extends Component<{ children: ComponentChildren }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? (
      <p class="problem" role="alert">
        Un problème empêche d’afficher ce module. Rechargez la page.
      </p>
    ) : (
      this.props.children
    );
  }
}

/**
 * Starts a widget: `App` drawn for the page's commune; `inside(href)` gives the frame's path for an app path the
 * widget shows itself (`/signaler?…` → `/embed/demande?…`), null for one it leaves to the app.
 */
export function startEmbed(App: FunctionComponent<EmbedParams & { path: string }>, inside: (url: URL) => string | null): void {
  const query = new URLSearchParams(location.search);
  const cityId = (query.get('city') ?? '').toLowerCase();
  const accent = readableAccent(query.get('color') ?? '');
  if (accent) {
    document.documentElement.style.setProperty('--accent', accent);
    document.documentElement.style.setProperty('--accent-light', lightTint(accent));
  }
  pinCity(cityId);
  focusAfterFirstAction();
  setLinkPolicy((href) => {
    const url = new URL(href, location.origin);
    const path = url.origin === location.origin ? inside(url) : null;
    return path === null ? { href: url.href, newTab: true } : { href: carried(path), newTab: false };
  });
  const params: EmbedParams = { cityId };

  function Page() {
    const path = usePath();
    return (
      <main id="main" class="embed">
        <Boundary>
          <App {...params} path={path} />
        </Boundary>
        <p class="embed-credit muted">
          <a href="/" target="_blank" rel="noopener">
            Collecte<span class="visually-hidden"> (nouvel onglet)</span>
          </a>
        </p>
      </main>
    );
  }
  const root = document.getElementById('app')!;
  root.textContent = '';
  render(<Page />, root);
  reportHeight();
}
