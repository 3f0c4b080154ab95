import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { formatDayNumber, todayIn } from '../kernel/dates.ts';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { normalisedQuery } from '../kernel/search-text.ts';
import { loadCityGuide } from './repository.ts';
import { buildCityGuide, MAX_RESULTS, searchGuide } from '../domain/sorting-guide.ts';
import { cachedPerCity } from '../domain/city-cache.ts';
import { searchCountsOf, shownQuery } from './search-counts.ts';
import { CityParamsSchema, SortingGuideQuerySchema, SortingGuideResultSchema } from './schemas.ts';

const RANKING =
  'Searched: the city\'s materials (waste type details), the synonyms their description lists after « Aussi appelé : » ' +
  'and the rest of their description, its quiz materials (answered by the question\'s waste type), and its waste types ' +
  'by name (answered with `material` = the waste type\'s name). Both sides are folded first: case, accents, punctuation ' +
  'and French plurals (`piles` = « Pile », `medicaments` = « Médicaments »), and linking words (`de`, `la`, `en`…) are ' +
  'ignored; a name\'s parentheses may be left out (`cafe` = « Café (marc) »). A word reads as another when it is the ' +
  'same, its start (3 letters or more) or a typo or two away (none under 5 letters, one under 10, two from there, as ' +
  'for street names). A name\'s head is its first word, and the first after « et » / « ou » (« Lave-vaisselle »: ' +
  '`lave`). Ranking tiers, best first: 1. the whole name; 2. a whole synonym; 3. every query word in a name or synonym, ' +
  'its head among them, in any order (a name before a synonym, then the fewer other words); 4. the same with typos or ' +
  'word starts; 5. every query word, but not the head (`medicaments` in « Bouteille de sirop de médicament »); 6. some ' +
  'of several query words, the head among them (or a typed word sharing 0.35 of its trigrams) or at least two (more ' +
  'words first, then the closer by trigrams); 7. guesses, answered only when ' +
  'nothing else matched: trigram similarity of 0.3 or more (pg_trgm\'s measure, computed in code), or a single shared ' +
  'word that is not the head (`vaisselle cassée` and « Lave-vaisselle »); 8. every query word in the description beyond ' +
  'its synonyms. Ties keep the materials\' order, then quiz materials, then waste types. Up to ' + MAX_RESULTS + ' ' +
  'results, one per (material, waste type).';

const COUNTING =
  'Each search is counted: per day (in the city\'s time zone), city and normalised query (folded, punctuation removed, ' +
  'up to 100 characters), with whether it found anything, and nothing else (no IP, no device, no time of day). The ' +
  'answer is therefore never served from the response cache (`Cache-Control: no-cache`: a client revalidates, and is ' +
  'counted again).';

/** `GET /public/cities/:cityId/sorting-guide?q=` (docs/api.md, what citizens search). Registered under /public. */
export default async function guideRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const counts = searchCountsOf(app);
  // Searches are not kept by the response cache (each must be counted): without this every keystroke of a search
  // box would read the city's materials again (five queries, ~100 rows).
  const guideOf = cachedPerCity(
    async (cityId) => {
      const rows = await loadCityGuide(app.db, cityId);
      return rows && buildCityGuide(rows);
    },
    { version: () => app.dataVersion.current, now: () => app.clock().getTime(), kept: 200 },
  );

  app.get(
    '/cities/:cityId/sorting-guide',
    {
      // Every search must reach the handler to be counted: a cached answer is written before any route hook runs.
      config: { cache: false },
      schema: {
        tags: ['guide'],
        summary: 'Where does this go? The city\'s materials matching what the citizen typed, best first',
        description:
          `A bare array of up to ${MAX_RESULTS} \`{material, wasteTypeId, wasteTypeName, instructions, recyclingPointIds}\`, ` +
          'best first; `[]` when nothing matches. `instructions`: the material\'s own, else its waste type\'s; ' +
          '`recyclingPointIds`: the city\'s recycling points whose `materials` hold that waste type, by name. ' +
          `${RANKING} \`q\` missing, blank or over 200 characters: 400. Unknown or NON_ACTIF city: 404. ${COUNTING}`,
        params: CityParamsSchema,
        querystring: SortingGuideQuerySchema,
        response: { 200: Type.Array(SortingGuideResultSchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const guide = await guideOf(request.params.cityId.toLowerCase());
      if (!guide) throw errors.cityNotFound();
      const results = searchGuide(guide, request.query.q);
      const query = normalisedQuery(request.query.q);
      // Punctuation alone names nothing worth counting (and would be an empty query).
      if (query !== '') {
        const day = formatDayNumber(todayIn(guide.city.timeZone, app.clock()));
        counts.add({ day, cityId: guide.city.id, query, shown: shownQuery(request.query.q), found: results.length > 0 });
      }
      reply.header('cache-control', 'no-cache');
      return results;
    },
  );
}
