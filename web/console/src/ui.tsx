// What every screen draws: titles, breadcrumbs, loading and error states, statuses, data loading (with the first screen).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { messageOf } from './api.ts';
import { hasNavigated } from './location.ts';
import type { Resource } from '../../shared/resource.ts';
import { Link } from '../../shared/router.tsx';

export { useResource, type Resource } from '../../shared/resource.ts';

/** The screen's title: focused when the agent moves to its screen (a screen reader hears it) and in the tab's title. */
export function Title({ children, text }: { children: ComponentChildren; text: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${text} – Console Collecte`;
    if (hasNavigated()) ref.current?.focus({ preventScroll: true });
  }, [text]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** A form's heading, focused when the form opens (a keyboard or screen-reader user lands on it). */
export function FormHeading({ id, children }: { id: string; children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (hasNavigated()) ref.current?.focus();
  }, []);
  return (
    <h2 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}

/** Where the agent is: links to the screens above this one. */
export function Breadcrumbs({ items }: { items: { href: string; label: string }[] }) {
  return (
    <nav aria-label="Fil d’Ariane" class="breadcrumbs">
      <ol>
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href}>{item.label}</Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Loading({ what = '' }: { what?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> Chargement{what ? ` ${what}` : ''}…
    </p>
  );
}

export function Problem({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="problem" role="alert">
      <p>{messageOf(error)}</p>
      {retry && (
        <button type="button" class="button secondary" onClick={retry}>
          Réessayer
        </button>
      )}
    </div>
  );
}

/** Loading, error or the data: the usual three states of a screen's resource. */
export function Loaded<T>({ resource, what, children }: { resource: Omit<Resource<T>, 'replace'>; what?: string; children: (data: T) => ComponentChildren }) {
  if (resource.error) return <Problem error={resource.error} retry={resource.reload} />;
  if (resource.data === null) return <Loading what={what} />;
  return <>{children(resource.data)}</>;
}

/** A short message announced politely (saved, deleted …). */
export function Status({ children }: { children: ComponentChildren }) {
  return (
    <p class="status" role="status">
      {children}
    </p>
  );
}

/** What the last action said above a screen's list: its status (saved, deleted …) and its failure. */
export function Notices({ status, problem }: { status: string | null; problem: unknown }) {
  return (
    <>
      {status && <Status>{status}</Status>}
      {problem !== null && (
        <p class="problem" role="alert">
          {messageOf(problem)}
        </p>
      )}
    </>
  );
}
