import { Component, render, type ComponentChildren, type FunctionComponent } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import './styles.css';
import { currentUser, holds, logout, onSessionChange, restoreSession, sessionEndReason, type User } from './api.ts';
import { useLocation } from './location.ts';
import { useRequestCounts, type RequestCounts } from './request-counts.ts';
import { mayOpen, screens, type ScreenEntry, type ScreenProps } from './screens.ts';
import { Login } from './screens/login.tsx';
import { Loading, Problem, Title } from './ui.tsx';
import { ConsoleFooter } from './legal.tsx';
import { Link, match } from '../../shared/router.tsx';

/** Screens already loaded, by path pattern: moving back to one draws it at once. */
const loaded = new Map<string, FunctionComponent<ScreenProps>>();

function LazyScreen({ entry, props }: { entry: ScreenEntry; props: ScreenProps }) {
  const [component, setComponent] = useState(() => loaded.get(entry.path) ?? null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const known = loaded.get(entry.path);
    if (known) return setComponent(() => known);
    setComponent(null);
    let live = true;
    entry.load().then(
      (module) => {
        loaded.set(entry.path, module.default);
        if (live) setComponent(() => module.default);
      },
      () => live && setError(new Error('chunk')),
    );
    return () => {
      live = false;
    };
  }, [entry, attempt]);
  if (component) {
    const Screen = component;
    return <Screen {...props} />;
  }
  if (error) {
    return (
      <div class="problem" role="alert">
        <p>Cet écran n’a pas pu être chargé&nbsp;: vérifiez votre connexion, puis réessayez.</p>
        <button type="button" class="button secondary" onClick={() => (setError(null), setAttempt((n) => n + 1))}>
          Réessayer
        </button>
      </div>
    );
  }
  return <Loading />;
}

function Message({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section>
      <Title text={title}>{title}</Title>
      {children}
      <p>
        <Link class="button secondary" href="/console">
          Retour à l’accueil
        </Link>
      </p>
    </section>
  );
}

function Route({ user }: { user: User }) {
  const { path, query } = useLocation();
  for (const entry of screens) {
    const params = match(entry.path, path);
    if (!params) continue;
    if (!mayOpen(user, entry)) {
      return (
        <Message title="Accès refusé">
          <p>Votre compte n’a pas la permission d’ouvrir cet écran. Demandez-la à un administrateur de votre collectivité.</p>
        </Message>
      );
    }
    return <LazyScreen key={entry.path} entry={entry} props={{ params, query }} />;
  }
  return (
    <Message title="Page introuvable">
      <p>Cet écran n’existe pas dans la console.</p>
    </Message>
  );
}

/** A failure while drawing a screen shows a sentence, never a blank page. */
class Boundary extends Component<{ path: string; children: ComponentChildren }, { failed: unknown }> {
  state = { failed: null as unknown };
  static getDerivedStateFromError(failed: unknown) {
    return { failed };
  }
  componentDidUpdate(previous: { path: string }) {
    if (previous.path !== this.props.path && this.state.failed) this.setState({ failed: null });
  }
  render() {
    return this.state.failed ? <Problem error={this.state.failed} /> : this.props.children;
  }
}

const SECTIONS = ['Collecte', 'Contenus', 'Conversations', 'Suivi', 'Administration'] as const;

/** The path of the requests' queue, whose link carries the counts. */
const REQUESTS_QUEUE = '/console/demandes';

/** « 3 reçues », « 1 en retard » beside the queue's link (nothing while unknown, a count of 0 left out). */
function RequestBadges({ counts }: { counts: RequestCounts | null }) {
  if (!counts) return null;
  return (
    <>
      {counts.received > 0 && ' '}
      {counts.received > 0 && (
        <span class="nav-count">
          {counts.received}&nbsp;reçue{counts.received > 1 ? 's' : ''}
        </span>
      )}
      {counts.overdue > 0 && ' '}
      {counts.overdue > 0 && <span class="nav-count late">{counts.overdue}&nbsp;en retard</span>}
    </>
  );
}

function isCurrent(entry: ScreenEntry, path: string): boolean {
  if (entry.path === '/console') return path === '/console';
  return path === entry.path || path.startsWith(`${entry.path}/`);
}

/** The id of the navigation's lists, which the « Menu » button shows and hides on a phone. */
const MENU_ID = 'console-menu';

/**
 * The screens the agent may open, by section: beside the content on a wide screen; on a phone (styles.css, below
 * 800 px) behind a « Menu » button, so that every screen starts with its content rather than with the whole list.
 * The menu closes once a screen is chosen and on Escape (the focus back on its button when it was inside).
 */
function Navigation({ user, path }: { user: User; path: string }) {
  const visible = screens.filter((s) => s.nav && mayOpen(user, s));
  const counts = useRequestCounts(holds(user, 'REQUESTS'));
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [path]);
  // Listening from the render that opens it (a layout effect, not one run after the paint): an Escape pressed as soon
  // as the menu shows folds it.
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (nav.current?.contains(document.activeElement)) button.current?.focus();
      setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  // A new screen focuses its title (ui.tsx, Title); the same screen chosen again would leave the focus on a link the
  // folded menu hides: it goes to the content.
  const choose = (target: string) => {
    setOpen(false);
    if (open && target === path) document.getElementById('main')?.focus();
  };
  const link = (s: ScreenEntry) => (
    <li key={s.path}>
      <Link href={s.path} aria-current={isCurrent(s, path) ? 'page' : undefined} onClick={() => choose(s.path)}>
        {s.nav}
        {s.path === REQUESTS_QUEUE && <RequestBadges counts={counts} />}
      </Link>
    </li>
  );
  return (
    <nav ref={nav} class={open ? 'side open' : 'side'} aria-label="Navigation de la console">
      <button ref={button} type="button" class="button secondary menu-button" aria-expanded={open} aria-controls={MENU_ID} onClick={() => setOpen(!open)}>
        <span class="menu-icon" aria-hidden="true" />
        Menu
      </button>
      <div id={MENU_ID} class="menu">
        <ul>{visible.filter((s) => !s.section).map(link)}</ul>
        {SECTIONS.map((section) => {
          const items = visible.filter((s) => s.section === section);
          if (items.length === 0) return null;
          return (
            <div key={section}>
              <h2 class="nav-section">{section}</h2>
              <ul>{items.map(link)}</ul>
            </div>
          );
        })}
      </div>
    </nav>
  );
}

function Shell({ user }: { user: User }) {
  const { path } = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Aller au contenu
      </a>
      <header class="top">
        <Link href="/console" class="brand">
          <img src="/icon.svg" alt="" width="28" height="28" />
          <span>Console Collecte</span>
        </Link>
        <div class="who">
          <span>
            <span class="visually-hidden">Connecté en tant que </span>
            <strong>{user.name}</strong>
          </span>
          <button type="button" class="button small secondary" onClick={() => void logout()}>
            Se déconnecter
          </button>
        </div>
      </header>
      <div class="layout">
        <Navigation user={user} path={path} />
        <main id="main" tabIndex={-1}>
          <Boundary path={path}>
            <Route user={user} />
          </Boundary>
        </main>
      </div>
      <ConsoleFooter />
    </>
  );
}

/** Without a session: the screens open to everyone (the legal pages) in a plain frame, else the login screen. */
function LoggedOut() {
  const { path, query } = useLocation();
  const open = screens.find((entry) => entry.public && match(entry.path, path));
  return (
    <>
      {open ? (
        <>
          <a class="skip" href="#main">
            Aller au contenu
          </a>
          <header class="top">
            <Link href="/console" class="brand">
              <img src="/icon.svg" alt="" width="28" height="28" />
              <span>Console Collecte</span>
            </Link>
          </header>
          <main id="main" tabIndex={-1}>
            <LazyScreen key={open.path} entry={open} props={{ params: {}, query }} />
          </main>
        </>
      ) : (
        <Login expired={sessionEndReason() === 'expired'} />
      )}
      <ConsoleFooter />
    </>
  );
}

function App() {
  const [booted, setBooted] = useState(false);
  const [user, setUser] = useState<User | null>(currentUser());
  useEffect(() => {
    const stop = onSessionChange(() => setUser(currentUser()));
    restoreSession().finally(() => setBooted(true));
    return stop;
  }, []);
  if (!booted) return <Loading what="de la console" />;
  if (!user) return <LoggedOut />;
  return <Shell user={user} />;
}

const root = document.getElementById('console')!;
root.textContent = '';
render(<App />, root);
