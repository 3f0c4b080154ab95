/**
 * Which URLs belong to the API and which to the web apps, and the web apps' Content-Security-Policy: shared by the
 * security headers (public-headers.ts) and the web app's routes (src/web/routes.ts), so that the two never disagree.
 * A routed request is judged by its route's audience (audience.ts); the URL only speaks for requests no route
 * answers (404s, the web app's catch-all, URLs the router cannot decode).
 */

/**
 * Whether a URL no route answers is the public API's: `/public`, `/public/…`, `/public?…`, never `/publicity`. Such a
 * request gets the public API's headers and counts against its rate limit, as the public routes' requests do.
 */
export const isPublicUrl = (url: string | undefined): boolean =>
  url !== undefined && url.startsWith('/public') && (url.length === 7 || url[7] === '/' || url[7] === '?');

/** The API and its documentation: never answered by the web app, not even by its client-side fallback. */
const API_PREFIXES = ['/public', '/open311', '/chat', '/auth', '/admin', '/docs', '/openapi.json', '/health', '/ready'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0];
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * The web app's Content-Security-Policy: its own scripts, styles, images and API only (everything is bundled and
 * served from here; no CDN, no inline script). Images from the CMS are same-origin media. The one exception is the
 * report form's map, when the operator configures one (MAP_TILE_URL): its tiles are images from that origin alone.
 * The apps are framed by nobody (`frame-ancestors 'none'`); the widgets' pages (src/web/embed.ts) by this origin and
 * the sites their city group lists (`embedOrigins`), given as `frameAncestors`.
 */
export function webAppCsp(tileOrigin: string | null, frameAncestors: readonly string[] | null = null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    tileOrigin === null ? "img-src 'self' data:" : `img-src 'self' data: ${tileOrigin}`,
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    frameAncestors === null ? "frame-ancestors 'none'" : ["frame-ancestors 'self'", ...frameAncestors].join(' '),
  ].join('; ');
}

/** The web app's CSP without a map: what every deployment without MAP_TILE_URL sends. */
export const WEB_APP_CSP = webAppCsp(null);

/** The origin of a tile URL template (`https://tile.example.org/{z}/{x}/{y}.png` -> `https://tile.example.org`). */
export const tileOrigin = (template: string | null): string | null => (template === null ? null : new URL(template).origin);
