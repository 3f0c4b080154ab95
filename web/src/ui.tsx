// Small shared pieces: loading and error states, screen titles, data loading.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { ApiError, messageOf } from './api.ts';
import { Link } from '../shared/router.tsx';

export { useResource, type Resource } from '../shared/resource.ts';

/**
 * Whether titles take the focus on arrival. In a widget, only once the resident has acted inside its frame (a key, a
 * tap): before that, a screen that draws itself (the first one, a commune of one sector opening its calendar) would
 * pull the focus from the commune's page.
 */
const focus = { onArrival: true };
export function focusAfterFirstAction(): void {
  focus.onArrival = false;
  const acted = () => {
    focus.onArrival = true;
    removeEventListener('keydown', acted, true);
    removeEventListener('pointerdown', acted, true);
  };
  addEventListener('keydown', acted, true);
  addEventListener('pointerdown', acted, true);
}

/** The screen's title: focused on arrival (screen readers hear the new screen) and in the tab title. */
export function Title({ children, text }: { children: ComponentChildren; text: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${text} – Collecte`;
    if (focus.onArrival) ref.current?.focus({ preventScroll: true });
  }, [text]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> Chargement {what}…
    </p>
  );
}

/**
 * An error in a French sentence. Retrying is offered only where it may work: not for what does not exist (404) or
 * was refused (400); those get a way back instead (`back`, else the home screen).
 */
export function Problem({ error, retry, back }: { error: unknown; retry?: () => void; back?: { href: string; label: string } }) {
  const final = error instanceof ApiError && (error.status === 404 || error.status === 400);
  const way = back ?? { href: '/', label: 'Retour à l’accueil' };
  return (
    <div class="problem" role="alert">
      <p>{messageOf(error)}</p>
      {retry && !final && (
        <button type="button" class="button secondary" onClick={retry}>
          Réessayer
        </button>
      )}
      {final && (
        <Link class="button secondary" href={way.href}>
          {way.label}
        </Link>
      )}
    </div>
  );
}

/** What a screen about "your commune" shows before one is chosen. */
export function NeedCity({ what }: { what: string }) {
  return (
    <div class="card">
      <p>Pour voir {what}, choisissez d'abord votre commune.</p>
      <Link class="button" href="/communes">
        Choisir ma commune
      </Link>
    </div>
  );
}

/** Whether the browser believes it is online; follows the `online` and `offline` events. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** Said above a screen whose content may come from the copy kept on the device. */
export function OfflineNotice({ what }: { what: string }) {
  if (useOnline()) return null;
  return (
    <p class="notice" role="status">
      Vous êtes hors connexion{'\u00a0'}: {what}
    </p>
  );
}

export function Swatch({ color }: { color: string | null }) {
  return <span class="swatch" style={{ background: color ?? '#6b7280' }} aria-hidden="true" />;
}

/** A field's error, tied to its input by `${id}-error` (aria-describedby), announced as one. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} class="field-error">
      <span class="visually-hidden">Erreur{'\u00a0'}: </span>
      {error}
    </p>
  ) : null;
}
