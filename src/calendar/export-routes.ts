import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CSV_FORMULA_NOTE, csvDocument, csvDownloadSchema, sendCsv } from '../http/csv.ts';
import { errors } from '../kernel/errors.ts';
import { todayIn } from '../kernel/dates.ts';
import { COLLECTIONS_CSV_COLUMNS, collectionRows, loadCitySchedules } from './city-collections.ts';
import { requestedRange } from './routes.ts';
import { CollectionsQuerySchema } from './schemas.ts';

const CityParamsSchema = Type.Object({ cityId: Type.String({ format: 'uuid', description: 'City id' }) });

/** The city's collection calendar as open data (docs/api.md, recycling points and open data). Registered under /public. */
export default async function calendarExportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/cities/:cityId/collections.csv',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Open data: every planned, moved, added or cancelled collection of a city (CSV)',
        description:
          'For the city\'s open-data portal: one row per collection of every collection place of the city from `from` ' +
          'through `to`, with the same range rules as `GET /public/cities/{cityId}/places/{placeId}/collections` ' +
          '(`YYYY-MM-DD` in the city\'s time zone, default today through today + 30, at most 366 days). Columns ' +
          '`secteur_id,secteur_nom,flux,date,date_initiale,statut,motif`: the place, the waste type\'s name, the day, ' +
          'the day it was planned for when it moved (else empty), the status — `PREVUE`, `REPORTEE` (moved: the row is on ' +
          'the new day), `AJOUTEE` (added by an exception) or `ANNULEE` (removed by an exception or a holiday rule, on its ' +
          'own day) — and the reason: the exception\'s name and description, or the holiday rule\'s wording ' +
          '(`Reportée du vendredi 25 décembre (Noël)`). Rows by date, then place name, then waste type name. UTF-8, comma-separated, header row, ' +
          'RFC 4180 quoting, CRLF line ends, `Content-Disposition: attachment`. Unknown or NON_ACTIF city: 404. ' +
          `${CSV_FORMULA_NOTE} Every column here is text (a place or a waste type named \`+1\` is written \`'+1\`).`,
        params: CityParamsSchema,
        querystring: CollectionsQuerySchema,
        ...csvDownloadSchema,
      },
    },
    async (request, reply) => {
      const data = await loadCitySchedules(app.db, request.params.cityId);
      if (!data) throw errors.cityNotFound();
      const range = requestedRange(request.query, todayIn(data.city.timeZone, app.clock()));
      const body = csvDocument(COLLECTIONS_CSV_COLUMNS, collectionRows(data, range));
      return sendCsv(reply, `collectes-${data.city.id}.csv`, body);
    },
  );
}
