import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CSV_FORMULA_NOTE, csvDocument, csvDownloadSchema, sendCsv } from '../http/csv.ts';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { EQUIPEMENTS_COLUMNS, equipementsRows } from './equipements.ts';
import { pointsFeatureCollection } from './geojson.ts';
import { pointStatuses } from './opening-status.ts';
import { findCityPoints, findGroupPoints } from './repository.ts';
import {
  CityParamsSchema,
  GeoJsonResponseSchema,
  GroupParamsSchema,
  PointsQuerySchema,
  RecyclingPointStatusSchema,
  type PointsQuery,
} from './schemas.ts';

/** How long a public answer may be kept (the response cache's and browsers' max-age). */
const MAX_AGE_S = 60;

const OPEN_DATA_NOTE =
  'Open data (docs/api.md, recycling points and open data): the city\'s points as GeoJSON at `GET /public/cities/{cityId}/recycling-points.geojson`, ' +
  'its group\'s as the SCDL `equipements` CSV at `GET /public/city-groups/{id}/equipements.csv`, its calendar as CSV at ' +
  '`GET /public/cities/{cityId}/collections.csv`.';

/** `lat` and `lon` come together. */
function position(query: PointsQuery): { lat: number; lon: number } | null {
  if (query.lat === undefined && query.lon === undefined) return null;
  if (query.lon === undefined) throw errors.missingWith('lon', 'lat');
  if (query.lat === undefined) throw errors.missingWith('lat', 'lon');
  return { lat: query.lat, lon: query.lon };
}

/** Recycling points with their opening state, and the open-data exports. Registered under /public. */
export default async function recyclingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/cities/:cityId/recycling-points',
    {
      schema: {
        tags: ['recycling'],
        summary: 'Recycling points of a city, open now or not, nearest first',
        description:
          'A bare array of the city\'s recycling points: the seed\'s RecyclingPoint (the same fields as in `GET /public/cities`) ' +
          'plus `kind`, `materials`, `openingHoursSpec`, `openNow`, `nextChange` and `distanceMeters`. `openNow` and ' +
          '`nextChange` are computed at `at` (default now) on the wall clock of the city\'s time zone (Europe/Paris unless ' +
          'the city says otherwise), French public holidays included (`PH`: the 11 national legal holidays, plus Good Friday and 26 December for a city whose `holidayCalendar` is `FR-ALSACE-MOSELLE`); both are null ' +
          'without a spec, `nextChange` alone when the state never changes (`24/7`). With `lat` and `lon` (both, or neither: ' +
          '400) each point carries its great-circle distance in whole metres and the nearest come first (points without a ' +
          'position last); otherwise by name (French collation). `wasteTypeId` keeps the points that take that waste type. ' +
          'Unknown or NON_ACTIF city: 404. Without `at`, the cached answer expires by the earliest `nextChange`. ' +
          OPEN_DATA_NOTE,
        params: CityParamsSchema,
        querystring: PointsQuerySchema,
        response: { 200: Type.Array(RecyclingPointStatusSchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const from = position(request.query);
      const found = await findCityPoints(app.db, request.params.cityId);
      if (!found) throw errors.cityNotFound();
      const now = request.query.at === undefined;
      const at = now ? app.clock() : new Date(request.query.at!);
      const { points, earliestChange } = pointStatuses(found.points, {
        at,
        timeZone: found.city.timeZone,
        holidayCalendar: found.city.holidayCalendar,
        from,
        wasteTypeId: request.query.wasteTypeId?.toLowerCase() ?? null,
      });
      // "Now" answers stop being right at the first opening or closing among them.
      if (now && earliestChange) {
        request.cacheUntil = earliestChange;
        const seconds = Math.max(0, Math.floor((earliestChange.getTime() - at.getTime()) / 1000));
        reply.header('cache-control', `public, max-age=${Math.min(MAX_AGE_S, seconds)}`);
      }
      return points;
    },
  );

  app.get(
    '/cities/:cityId/recycling-points.geojson',
    {
      schema: {
        tags: ['recycling'],
        summary: 'Open data: the city\'s recycling points as GeoJSON',
        description:
          'For the city\'s open-data portal and OpenStreetMap contributors: an RFC 7946 `FeatureCollection` ' +
          '(`application/geo+json`) with one `Point` feature (`[longitude, latitude]`, WGS 84) per recycling point that has a ' +
          'position, by name. Properties are OpenStreetMap tags: `amenity=recycling`; `recycling_type` `centre` (CENTRE) or ' +
          '`container` (CONTAINER), none for a SHOP or an unsaid kind; `name`; `addr:full`; `opening_hours` (the spec); ' +
          '`recycling:<material>=yes` for each OSM material the waste types it takes stand for (read from their names: ' +
          'Verre → glass_bottles, Emballages → plastic_packaging, cans, beverage_cartons, Papier → paper, Carton → cardboard, ' +
          'Textiles → clothes, Chaussures → shoes, Déchets verts → green_waste, Biodéchets → organic, Piles → batteries, ' +
          'Ampoules → light_bulbs, DEEE → electrical_appliances, Bois → wood, Gravats → rubble); `collecte:id`; ' +
          '`collecte:kind`. As in OSM, a tag without a value is left out. Unknown or NON_ACTIF city: 404.',
        params: CityParamsSchema,
        produces: ['application/geo+json'],
        response: { 200: GeoJsonResponseSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const found = await findCityPoints(app.db, request.params.cityId);
      if (!found) throw errors.cityNotFound();
      return reply
        .type('application/geo+json')
        .header('content-disposition', `attachment; filename="points-de-collecte-${found.city.id}.geojson"`)
        // Serialised here: the response schema only describes the document for OpenAPI.
        .send(JSON.stringify(pointsFeatureCollection(found.points)) as never);
    },
  );

  app.get(
    '/city-groups/:id/equipements.csv',
    {
      schema: {
        tags: ['recycling'],
        summary: 'Open data: the group\'s recycling points in the SCDL « équipements » schema (CSV)',
        description:
          'The columns of the SCDL `equipements` schema (schema.data.gouv.fr, version 0.1.5), in its order; one row per ' +
          'recycling point of the group\'s ACTIF cities (cities, then points, by name). `COLL_NOM` the group\'s name; ' +
          '`COLL_SIRET` its SIRET when the import bundle gives one, else its SIREN; `EQUIP_UID` the point\'s id (the ' +
          'schema builds it on the commune\'s INSEE code, which Collecte does not hold); `EQUIP_THEME` `Autre équipement`; ' +
          '`EQUIP_CODE` empty (a national nomenclature code is not ours to guess); `EQUIP_TYPE` Déchèterie, ' +
          'Point d\'apport volontaire or Point de reprise by kind; the address split from the one-line address ' +
          '(`ADR_NUMERO` 99999 for a way without a number); `EQUIP_OUVERTURE` the `opening_hours` spec. UTF-8, ' +
          'comma-separated, header row, RFC 4180 quoting, `Content-Disposition: attachment`. Unknown group: 404. ' +
          `${CSV_FORMULA_NOTE} Here \`EQUIP_LAT\` and \`EQUIP_LONG\` are the numeric columns; every other column is text ` +
          '(a point named `=HYPERLINK(…)` is written `\'=HYPERLINK(…)`).',
        params: GroupParamsSchema,
        ...csvDownloadSchema,
      },
    },
    async (request, reply) => {
      const found = await findGroupPoints(app.db, request.params.id);
      if (!found) throw errors.cityGroupNotFound();
      return sendCsv(reply, `equipements-${found.group.id}.csv`, csvDocument(EQUIPEMENTS_COLUMNS, equipementsRows(found)));
    },
  );
}
