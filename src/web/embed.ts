import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { embedOriginsOfCity } from '../domain/cities.ts';
import { tileOrigin, webAppCsp } from '../http/url-space.ts';
import { isUuid } from '../kernel/schemas.ts';

/**
 * The widgets' pages (docs/widgets.md): `/embed/KIND?city=UUID`, one built page per kind (web/embed/KIND.html), each
 * framable by this origin and the sites its city's group lists (`embedOrigins`), by no one else. `/widget.js`, the
 * loader the communes' websites include, is a file of the build served as the others are (src/web/routes.ts).
 */

/** The kinds are the pages the build wrote (`embed/KIND.html`, from web/embed/): read once, at start. */
function builtKinds(root: string): ReadonlySet<string> {
  const dir = path.join(root, 'embed');
  if (!fs.existsSync(dir)) return new Set();
  return new Set(fs.readdirSync(dir).filter((file) => file.endsWith('.html')).map((file) => file.slice(0, -'.html'.length)));
}

const NOT_FOUND = `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Module introuvable – Collecte</title>
<p>Ce module Collecte n’existe pas, ou sa commune n’est pas publiée. Vérifiez les attributs <code>data-collecte</code> et
<code>data-city</code> de la page qui l’intègre.</p></html>`;

const EmbedQuery = Type.Object(
  {
    city: Type.String({ maxLength: 64, description: 'The commune (UUID)' }),
    place: Type.Optional(Type.String({ maxLength: 64, description: 'A collection place of the commune (calendrier)' })),
    color: Type.Optional(Type.String({ maxLength: 32, description: 'The accent colour, `#RGB` or `#RRGGBB`; darkened until it reads on white' })),
  },
  // The page reads what it knows of the query; the rest (what its screens pre-fill, `type`…) goes through.
  { additionalProperties: true },
);

export default async function embedRoutes(app: FastifyInstance, options: { root: string }) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const kinds = builtKinds(options.root);
  const tiles = tileOrigin(app.config.mapTiles?.url ?? null);

  /** A missing kind or an unknown commune: a short French page nobody may frame (its group, if any, is unknown). */
  const notFound = (reply: FastifyReply) =>
    reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_FOUND);

  const page = async (kind: string, cityId: string, reply: FastifyReply) => {
    if (!kinds.has(kind) || !isUuid(cityId)) return notFound(reply);
    const origins = await embedOriginsOfCity(app.db, cityId.toLowerCase());
    if (origins === null) return notFound(reply);
    // frame-ancestors says who may frame the page; X-Frame-Options would forbid it to all.
    reply.removeHeader('x-frame-options');
    reply.header('content-security-policy', webAppCsp(tiles, origins));
    // Cache-Control as every page of the build (src/web/routes.ts): revalidated each time, so a new site list holds at once.
    return reply.sendFile(path.join('embed', `${kind}.html`), options.root);
  };

  typed.get(
    '/embed/:kind',
    { schema: { hide: true, params: Type.Object({ kind: Type.String({ maxLength: 32 }) }), querystring: EmbedQuery } },
    (request, reply) => page(request.params.kind, request.query.city, reply),
  );
  // The request widget's own screens (« Mes demandes » of the frame), reached by its links.
  typed.get('/embed/demande/*', { schema: { hide: true, querystring: EmbedQuery } }, (request, reply) => page('demande', request.query.city, reply));
}
