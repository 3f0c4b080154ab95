// A tiny history router for /console: the location is state, links are plain <a> elements intercepted on click.
import { useEffect, useState } from 'preact/hooks';
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';

const listeners = new Set<() => void>();

/** False until the agent moves within the console: a fresh page keeps the browser's focus order (skip link first). */
let moved = false;
export const hasNavigated = () => moved;

export function navigate(to: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.scrollTo(0, 0);
  moved = true;
  for (const listener of listeners) listener();
}

addEventListener('popstate', () => {
  moved = true;
  for (const listener of listeners) listener();
});

/** The current path and query string (`/console/communes/…?edit=…`), re-rendering on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const read = () => ({ path: location.pathname.replace(/\/+$/, '') || '/', search: location.search });
  const [state, setState] = useState(read);
  useEffect(() => {
    const update = () => setState(read());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return { path: state.path, query: new URLSearchParams(state.search) };
}

/** Changes one query parameter of the current page (null removes it), as a new history entry. */
export function setQuery(name: string, value: string | null): void {
  const url = new URL(location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  navigate(url.pathname + url.search);
}

/** Matches `/console/communes/:cityId` against a path (no trailing slash); the parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.split('/');
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) {
      // Every parameter names a record by its UUID, as the server's list of client routes says (src/web/paths.ts).
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s[i])) return null;
      params[p[i].slice(1)] = s[i].toLowerCase();
    } else if (p[i] !== s[i]) return null;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

export function Link({ href, onClick, ...rest }: LinkProps) {
  return (
    <a
      href={href}
      onClick={(event) => {
        if (onClick) (onClick as (e: MouseEvent) => void)(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
      {...rest}
    />
  );
}
