import { Component, render, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { lazy } from './lazy.tsx';
import { Link, match, usePath } from '../shared/router.tsx';
import { loadSite, type SiteChrome } from './site.ts';
import { chosenPlace } from './store.ts';
import type { MenuItem } from './types.ts';
import { Title } from './ui.tsx';
import { Calendar } from './screens/calendar.tsx';
import { CitySearch, PlaceChoice } from './screens/communes.tsx';
import { HomeSearch } from './screens/home-search.tsx';

const Challenges = lazy(() => import('./screens/challenges.tsx').then((m) => m.Challenges));
const Quiz = lazy(() => import('./screens/challenges.tsx').then((m) => m.Quiz));
const BlogList = lazy(() => import('./screens/blog.tsx').then((m) => m.BlogList));
const BlogPostScreen = lazy(() => import('./screens/blog.tsx').then((m) => m.BlogPostScreen));
const Chat = lazy(() => import('./screens/chat.tsx').then((m) => m.Chat));
const RecyclingPoints = lazy(() => import('./screens/points.tsx').then((m) => m.RecyclingPoints));
const WhereDoesItGo = lazy(() => import('./screens/sorting.tsx').then((m) => m.WhereDoesItGo));
const OpenData = lazy(() => import('./screens/open-data.tsx').then((m) => m.OpenData));
const PageScreen = lazy(() => import('./screens/page.tsx').then((m) => m.PageScreen));
const Report = lazy(() => import('./screens/report.tsx').then((m) => m.Report));
const MyRequests = lazy(() => import('./screens/my-requests.tsx').then((m) => m.MyRequests));
const MyRequest = lazy(() => import('./screens/my-requests.tsx').then((m) => m.MyRequest));
const AccessibilityScreen = lazy(() => import('./screens/legal.tsx').then((m) => m.AccessibilityScreen));
const PersonalDataScreen = lazy(() => import('./screens/legal.tsx').then((m) => m.PersonalDataScreen));

function Home() {
  const place = chosenPlace();
  return place ? <Calendar cityId={place.cityId} placeId={place.placeId} /> : <HomeSearch />;
}

function NotFound() {
  return (
    <section>
      <Title text="Page introuvable">Page introuvable</Title>
      <p>Cette page n'existe pas ou plus.</p>
      <p class="actions">
        <Link class="button" href="/">
          Retour à l'accueil
        </Link>
        <Link class="button secondary" href="/communes">
          Choisir ma commune
        </Link>
      </p>
    </section>
  );
}

function Screen({ path }: { path: string }) {
  let p: Record<string, string> | null;
  if (match('/', path)) return <Home />;
  if (match('/communes', path)) return <CitySearch />;
  if ((p = match('/communes/:cityId', path))) return <PlaceChoice cityId={p.cityId} />;
  if ((p = match('/communes/:cityId/:placeId', path))) return <Calendar cityId={p.cityId} placeId={p.placeId} />;
  if (match('/tri', path)) return <WhereDoesItGo />;
  if (match('/decheteries', path)) return <RecyclingPoints />;
  if (match('/defis', path)) return <Challenges />;
  if ((p = match('/defis/:challengeId/:serieId', path))) return <Quiz challengeId={p.challengeId} serieId={p.serieId} />;
  if (match('/actualites', path)) return <BlogList />;
  if ((p = match('/actualites/:postId', path))) return <BlogPostScreen postId={p.postId} />;
  if (match('/assistant', path)) return <Chat />;
  if (match('/donnees-ouvertes', path)) return <OpenData />;
  if ((p = match('/pages/:pageId', path))) return <PageScreen pageId={p.pageId} />;
  // The form's type and what it pre-fills are in the query (`/signaler?type=…`): route parameters are UUIDs only.
  if (match('/signaler', path)) return <Report />;
  if (match('/mes-demandes', path)) return <MyRequests />;
  if ((p = match('/mes-demandes/:requestId', path))) return <MyRequest key={p.requestId} requestId={p.requestId} />;
  if (match('/accessibilite', path)) return <AccessibilityScreen />;
  if (match('/donnees-personnelles', path)) return <PersonalDataScreen />;
  return <NotFound />;
}

/** A failure while drawing a screen shows a sentence, never a blank page. */
class Boundary extends Component<{ path: string; children: ComponentChildren }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidUpdate(previous: { path: string }) {
    if (previous.path !== this.props.path && this.state.failed) this.setState({ failed: false });
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div class="problem" role="alert">
        <p>Un problème empêche d'afficher cette page. Rechargez-la, ou revenez à l'accueil.</p>
        <a class="button secondary" href="/">
          Retour à l'accueil
        </a>
      </div>
    );
  }
}

const TABS = [
  { href: '/', label: 'Collecte', icon: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13' },
  { href: '/tri', label: 'Où jeter ?', icon: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM21 21l-5-5' },
  { href: '/decheteries', label: 'Déchèteries', icon: 'M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11zM12 7.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z' },
  { href: '/defis', label: 'Défis', icon: 'M8 4h8v5a4 4 0 0 1-8 0zM12 13v4M8 20h8M8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4' },
  { href: '/actualites', label: 'Actus', icon: 'M5 5h14v14H5zM8 9h8M8 13h8M8 17h5' },
  { href: '/assistant', label: 'Assistant', icon: 'M4 5h16v11H9l-5 4z' },
];

const REQUEST_LINKS = [
  { href: '/signaler', label: 'Signaler' },
  { href: '/mes-demandes', label: 'Mes demandes' },
];

function isActive(href: string, path: string): boolean {
  if (href === '/') return path === '/' || path.startsWith('/communes');
  return path === href || path.startsWith(`${href}/`);
}

function MenuLinks({ items }: { items: MenuItem[] }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item.id}>
          {item.linkType === 'PAGE' && item.pageId ? (
            <Link href={`/pages/${item.pageId}`}>{item.label}</Link>
          ) : item.linkType === 'EXTERNAL' && item.externalUrl ? (
            <a href={item.externalUrl} rel="noopener">
              {item.label}
            </a>
          ) : (
            <span>{item.label}</span>
          )}
          {item.children.length > 0 && <MenuLinks items={item.children} />}
        </li>
      ))}
    </ul>
  );
}

function App() {
  const path = usePath();
  const [site, setSite] = useState<SiteChrome | null>(null);

  useEffect(() => {
    loadSite().then(setSite, () => setSite(null));
  }, []);
  return (
    <>
      <a class="skip" href="#main">
        Aller au contenu
      </a>
      <header class="top">
        <div class="bar">
          <Link href="/" class="brand">
            <img src="/icon.svg" alt="" width="32" height="32" />
            <span>{site?.site.name ?? 'Collecte'}</span>
          </Link>
          {/* Requests beside the brand rather than a seventh tab: six labels already fill a 320 px bar. */}
          <nav class="request-nav" aria-label="Demandes">
            <ul>
              {REQUEST_LINKS.map((l) => (
                <li key={l.href}>
                  <Link href={l.href} aria-current={isActive(l.href, path) ? 'page' : undefined}>
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        {site?.header && (
          <nav class="site-menu" aria-label={site.header.name}>
            <MenuLinks items={site.header.items} />
          </nav>
        )}
      </header>
      <nav class="tabs" aria-label="Navigation principale">
        <ul>
          {/* Every tab whatever the commune: the bar keeps its shape; the assistant's screen says where it is not offered. */}
          {TABS.map((t) => (
            <li key={t.href}>
              <Link href={t.href} aria-current={isActive(t.href, path) ? 'page' : undefined}>
                <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
                  <path d={t.icon} />
                </svg>
                <span>{t.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Boundary path={path}>
          <Screen path={path} />
        </Boundary>
      </main>
      <footer class="bottom">
        {site?.footer && (
          <nav aria-label={site.footer.name}>
            <MenuLinks items={site.footer.items} />
          </nav>
        )}
        <p class="muted">
          Collecte, logiciel libre · <Link href="/donnees-ouvertes">Données ouvertes</Link> · <a href="/docs">API publique</a>
        </p>
        <p class="muted legal-links">
          <Link href="/accessibilite">Accessibilité : partiellement conforme</Link> · <Link href="/donnees-personnelles">Données personnelles</Link>
        </p>
      </footer>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);

if ('serviceWorker' in navigator) {
  addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // Without a service worker the app works, only not offline.
    });
  });
}
