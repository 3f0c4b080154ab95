// The tiny history router of both apps (the citizens' at /, the agents' console at /console): the location is state,
// links are plain <a> elements intercepted on click.
import { useEffect, useState } from 'preact/hooks';
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';

const listeners = new Set<() => void>();

/** Calls `listener` after every navigation (a link, `navigate`, the back button); answers the unsubscribe. */
export function onNavigate(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const notify = () => {
  for (const listener of listeners) listener();
};

/**
 * Where a link of the app's screens leads: the same path (the apps), or, inside a widget's frame (web/src/embed),
 * the frame's own path for what the widget shows itself, and the app in a new tab for the rest.
 */
export type LinkPolicy = (href: string) => { href: string; newTab: boolean };
let policy: LinkPolicy = (href) => ({ href, newTab: false });

/** Set once, before the first render, by a widget's page. */
export function setLinkPolicy(next: LinkPolicy): void {
  policy = next;
}

export function navigate(to: string, { replace = false } = {}): void {
  const target = policy(to);
  if (target.newTab) window.open(target.href, '_blank', 'noopener');
  else go(target.href, replace);
}

/** Moves to a path the policy already gave (a Link's). */
function go(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.scrollTo(0, 0);
  notify();
}

addEventListener('popstate', notify);

/** What `read` takes from the location, re-rendering at every navigation that changes it. */
export function useFromLocation<T>(read: () => T): T {
  const [value, setValue] = useState(read);
  useEffect(() => onNavigate(() => setValue(read())), []);
  return value;
}

/** The current path without its trailing slash (`/` stays `/`), re-rendering when it changes. */
export const usePath = (): string => useFromLocation(() => location.pathname.replace(/\/+$/, '') || '/');

/** Every parameter of the apps' routes names a record by its UUID, as the server's list of client routes says (src/web/paths.ts). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Matches `/defis/:challengeId` against a path; the parameters (lower-case UUIDs), or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = (path.replace(/\/+$/, '') || '/').split('/');
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) {
      if (!UUID.test(s[i])) return null;
      params[p[i].slice(1)] = s[i].toLowerCase();
    } else if (p[i] !== s[i]) return null;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

export function Link({ href, onClick, ...rest }: LinkProps) {
  const target = policy(href);
  // Out of a widget's frame: a plain link to the app, in a new tab, said to screen readers.
  if (target.newTab) {
    const { children, ...attributes } = rest;
    return (
      <a href={target.href} target="_blank" rel="noopener" onClick={onClick} {...attributes}>
        {children}
        <span class="visually-hidden"> (nouvel onglet)</span>
      </a>
    );
  }
  href = target.href;
  return (
    <a
      href={href}
      onClick={(event) => {
        if (onClick) (onClick as (e: MouseEvent) => void)(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        go(href);
      }}
      {...rest}
    />
  );
}
