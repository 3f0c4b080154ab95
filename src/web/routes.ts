import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isClientRoute, isConsolePath, isConsoleRoute } from './paths.ts';
import { isApiPath } from '../http/url-space.ts';
import embedRoutes from './embed.ts';
import { withDisplayName } from '../http/plugin-name.ts';

/** Where `npm run build:web` (run by `npm ci` through `prepare`) writes the app. */
export const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

/** Hashed file names never change content: browsers keep them for a year without asking. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const WIDGET_CACHE = 'public, max-age=3600';

const NOT_BUILT = `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Collecte</title>
<p>L'application web n'est pas construite sur ce serveur. Lancez <code>npm run build:web</code> puis redémarrez.
L'API reste disponible : <a href="/docs">documentation</a>.</p></html>`;

/** The q-value of one media range of an Accept header (`text/html;q=0.8` -> 0.8). */
function quality(params: string[]): number {
  const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
  const value = q === undefined ? 1 : Number(q.slice(2));
  return Number.isFinite(value) ? value : 0;
}

/**
 * Whether the client would rather read HTML than JSON, as a browser navigating does: text/html (or any text type)
 * weighs more than application/json (or any application type). Where neither is named, both weigh what the
 * catch-all range does, and JSON wins.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights: Record<string, number> = {};
  for (const range of accept.split(',')) {
    const [type, ...params] = range.trim().toLowerCase().split(';');
    weights[type.trim()] = Math.max(weights[type.trim()] ?? 0, quality(params));
  }
  const any = weights['*/*'] ?? 0;
  const html = weights['text/html'] ?? weights['application/xhtml+xml'] ?? weights['text/*'] ?? any;
  const json = weights['application/json'] ?? weights['application/*'] ?? any;
  return html > json;
}

export interface WebRoutesOptions {
  /** The built app (tests may point elsewhere). */
  root?: string;
}

/**
 * The citizens' web app at /: its files, and index.html for each of its client routes (paths.ts). Any other path is
 * a 404: the app's page with status 404 for a browser (its router shows its not-found screen), the API's JSON error
 * otherwise. API paths (/public, /chat, /docs, …) always keep the API's JSON 404. The agents' console is the same
 * under /console, with its own page (console/index.html of the same build, same CSP).
 */
export default async function webRoutes(app: FastifyInstance, options: WebRoutesOptions) {
  const root = options.root ?? WEB_DIST;
  const built = fs.existsSync(path.join(root, 'index.html'));

  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      // One route per built file (no wildcard): the wildcard below is the client-side fallback.
      wildcard: false,
      index: false,
      globIgnore: ['**/*.gz', '**/*.br', 'index.html', 'console/index.html', 'embed/*.html'],
      // The .br and .gz written by the build, when the browser accepts them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
        // The widgets' loader, on every page of the communes' sites: kept an hour, so that a site's visitors ask once.
        reply.header('cache-control', hashed ? IMMUTABLE : filePath === path.join(root, 'widget.js') ? WIDGET_CACHE : 'no-cache');
      },
    });
  } else {
    app.log.warn({ root }, 'web app not built: run npm run build:web');
  }

  // The widgets' pages, each under the CSP of its commune's group.
  await app.register(withDisplayName(embedRoutes), { root });

  const fallback = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    if (isApiPath(pathname)) return reply.callNotFound();
    const inConsole = isConsolePath(pathname);
    const page = inConsole ? 'console/index.html' : 'index.html';
    const known = inConsole ? isConsoleRoute(pathname) : isClientRoute(pathname);
    if (!known && !(built && prefersHtml(request.headers.accept))) return reply.callNotFound();
    if (!built) return reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);
    // index.html is small and names the hashed files: always revalidated.
    if (known) return reply.header('cache-control', 'no-cache').sendFile(page);
    // The app's page with a 404: its router shows the not-found screen. Not through sendFile, whose conditional
    // answers (If-Modified-Since) would turn this into a 404 without a body.
    const html = await fs.promises.readFile(path.join(root, page));
    return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };
  app.get('/', { schema: { hide: true } }, fallback);
  // Every path no other route answers, API paths included: judged by its URL at the edge, as a URL no route answers
  // (src/http/audience.ts), so that an unknown /public path keeps the public API's headers.
  app.get('/*', { schema: { hide: true }, config: { audience: 'fallback' } }, fallback);
}
