// A widget's page (docs/widgets.md): one of the app's screens inside a commune's website, in a frame `/widget.js`
// drew. The page's query names the commune (`city`), a place (`place`) and an accent (`color`); the shell pins the
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

export interface EmbedParams {
  cityId: string;
  placeId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the widget carries from one of its screens to the next: its commune and its colour. */
const CARRIED = ['city', 'color'] as const;

/** `href` inside the frame, with the widget's commune and colour added to its query. */
function carried(href: string): string {
  const url = new URL(href, location.origin);
  const here = new URLSearchParams(location.search);
  for (const key of CARRIED) if (!url.searchParams.has(key) && here.get(key)) url.searchParams.set(key, here.get(key)!);
  return url.pathname + url.search + url.hash;
}

/**
 * A browser that blocks third-party storage (third-party cookies blocked: Chrome's private windows, a setting of many)
 * throws on the frame's `localStorage`. The screens' store would then forget everything at once, the device id
 * included, a new one at each render: the calendar's reminders asked the server again at each, without end. The
 * frame keeps what it stores in memory instead, for as long as it is open.
 */
function storageInMemoryIfDenied(): void {
  try {
    void window.localStorage;
    return;
  } catch {
    const items = new Map<string, string>();
    const memory: Storage = {
      get length() {
        return items.size;
      },
      key: (index) => [...items.keys()][index] ?? null,
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, String(value)),
      removeItem: (key) => void items.delete(key),
      clear: () => items.clear(),
    };
    Object.defineProperty(window, 'localStorage', { value: memory, configurable: true });
  }
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
  storageInMemoryIfDenied();
  const query = new URLSearchParams(location.search);
  const cityId = (query.get('city') ?? '').toLowerCase();
  const place = query.get('place');
  const accent = readableAccent(query.get('color') ?? '');
  if (accent) {
    document.documentElement.style.setProperty('--accent', accent);
    document.documentElement.style.setProperty('--accent-light', lightTint(accent));
  }
  pinCity(cityId);
  focusAfterFirstAction();
  // `/embed/KIND`: a path of this frame's own is kept as it is. `Link` hands `navigate` the path this policy gave it,
  // and `navigate` asks the policy again: taken for an app path, every link inside the frame opened a new tab.
  const own = location.pathname.split('/').slice(0, 3).join('/');
  setLinkPolicy((href) => {
    const url = new URL(href, location.origin);
    if (url.origin === location.origin && (url.pathname === own || url.pathname.startsWith(`${own}/`))) {
      return { href: carried(url.pathname + url.search + url.hash), newTab: false };
    }
    const path = url.origin === location.origin ? inside(url) : null;
    return path === null ? { href: url.href, newTab: true } : { href: carried(path), newTab: false };
  });
  const params: EmbedParams = { cityId, placeId: place && UUID.test(place) ? place.toLowerCase() : null };

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
