import { isUuid } from '../kernel/schemas.ts';

/**
 * Which URLs belong to the citizens' web app (web/, served at /) and which to the API. Shared by the
 * app's routes and the security headers, so that the two never disagree.
 */

/** The API and its documentation: never answered by the web app, not even by its client-side fallback. */
const API_PREFIXES = ['/public', '/chat', '/docs', '/openapi.json', '/health', '/ready'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0];
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

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

/**
 * The web app's Content-Security-Policy: its own scripts, styles, images and API only (everything is
 * bundled and served from here; no CDN, no inline script). Images from the CMS are same-origin media.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
