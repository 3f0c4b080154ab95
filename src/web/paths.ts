import { isUuid } from '../kernel/schemas.ts';

/**
 * The web app's own client routes, as its router matches them (web/src/main.tsx, `Screen`); each `:param` names a
 * record by its id, a UUID. Only these paths get the app's page with 200; any other path is a 404
 * (test/web/routes.test.ts checks that this list and the router's agree).
 */
export const CLIENT_ROUTES = [
  '/',
  '/communes',
  '/communes/:cityId',
  '/communes/:cityId/:placeId',
  '/tri',
  '/decheteries',
  '/defis',
  '/defis/:challengeId/:serieId',
  '/actualites',
  '/actualites/:postId',
  '/assistant',
  '/pages/:pageId',
];


/** Each route as its list of segments, null standing for a parameter. */
const ROUTE_SEGMENTS = CLIENT_ROUTES.map((route) => route.split('/').filter(Boolean).map((part) => (part.startsWith(':') ? null : part)));

/** Whether a path (no query string) is one of the web app's client routes; trailing slashes are ignored, as the router does. */
export function isClientRoute(pathname: string): boolean {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed !== '' && !trimmed.startsWith('/')) return false;
  // An empty segment inside the path (`/communes//x`) matches no segment of a route.
  const segments = trimmed === '' ? [] : trimmed.slice(1).split('/');
  return ROUTE_SEGMENTS.some(
    (route) => route.length === segments.length && route.every((part, i) => (part === null ? isUuid(segments[i]) : part === segments[i])),
  );
}
