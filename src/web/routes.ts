import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath } from './paths.ts';

/** Where `npm run build:web` (run by `npm ci` through `prepare`) writes the app. */
export const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

/** Hashed file names never change content: browsers keep them for a year without asking. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Collecte</title>
<p>L'application web n'est pas construite sur ce serveur. Lancez <code>npm run build:web</code> puis redémarrez.
L'API reste disponible : <a href="/docs">documentation</a>.</p></html>`;

export interface WebRoutesOptions {
  /** The built app (tests may point elsewhere). */
  root?: string;
}

/**
 * The citizens' web app at /: its files, and index.html for every client-side route. API paths
 * (/public, /chat, /docs, …) are never answered here: an unknown one keeps the API's JSON 404.
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
      globIgnore: ['**/*.gz', '**/*.br', 'index.html'],
      // The .br and .gz written by the build, when the browser accepts them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  } else {
    app.log.warn({ root }, 'web app not built: run npm run build:web');
  }

  const fallback = async (request: { url: string }, reply: import('fastify').FastifyReply) => {
    const pathname = request.url.split('?')[0];
    // API paths, and files that do not exist (a name with an extension), keep the JSON 404.
    if (isApiPath(pathname) || path.extname(pathname) !== '') return reply.callNotFound();
    if (!built) return reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);
    // index.html is small and names the hashed files: always revalidated.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  app.get('/', { schema: { hide: true } }, fallback);
  app.get('/*', { schema: { hide: true } }, fallback);
}
