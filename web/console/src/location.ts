// The console's side of the shared router (web/shared/router.tsx): the query string a screen reads (`?edit=…`), and
// whether the agent has moved within the console yet (a fresh page keeps the browser's focus order, skip link first).
import { navigate, onNavigate, useFromLocation } from '../../shared/router.tsx';

let moved = false;
onNavigate(() => {
  moved = true;
});
export const hasNavigated = () => moved;

/** The current path (no trailing slash) and query string, re-rendering on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const at = useFromLocation(() => `${location.pathname.replace(/\/+$/, '') || '/'}${location.search}`);
  const [path, search = ''] = at.split(/\?(.*)/s);
  return { path, query: new URLSearchParams(search) };
}

/** Changes one query parameter of the current page (null removes it), as a new history entry. */
export function setQuery(name: string, value: string | null): void {
  const url = new URL(location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  navigate(url.pathname + url.search);
}
