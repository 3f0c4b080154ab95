import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoute, guardErrors } from '../admin/resource.ts';
import { adminAgentOf } from '../admin/agent.ts';
import { requestedGroupScope, requireAdminAgent } from '../auth/guard.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { analyticsRange, queryLabels, searchDays } from './analytics.ts';
import { chatAnalytics, citiesOfGroups, requestAnalytics, searchAnalytics } from './repository.ts';
import { searchCountsOf } from './search-counts.ts';
import { AnalyticsQuerySchema, AnalyticsSchema } from './schemas.ts';

/** Queries listed per day and list. */
const PER_DAY = 20;

/** `GET /admin/analytics` (docs/api.md, what citizens search): what citizens search, per day, for agents holding CITIES. */
export default async function guideAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireAdminAgent(app, 'CITIES');
  const counts = searchCountsOf(app);

  app.get('/analytics', {
    schema: {
      ...adminRoute,
      summary: 'What citizens search in the sorting guide, per day',
      description:
        'Needs CITIES. For every day from `from` through `to` (`YYYY-MM-DD`, inclusive, up to 366 days; default the last ' +
        '30 days, today in Europe/Paris included): the most searched queries of the group\'s cities with their counts ' +
        `(\`topQueries\`, up to ${PER_DAY}), and the searches that found nothing (\`notFound\`, up to ${PER_DAY}). A query ` +
        'is counted as the search stored it: folded, punctuation removed (`Piles` and `piles` are one query; `pile` is ' +
        'another); `queryLabels` says how each reads as typed (« capsule de café »). Counts are per day of each city\'s time zone and hold nothing that identifies a citizen. `chatTopics`: ' +
        `what the chat assistant was asked, by topic (the kind of question: « Jours de collecte », « Tri des déchets », ` +
        `« Points de collecte et horaires »…), up to ${PER_DAY}; \`unanswered\`: the questions it answered « je ne sais pas » ` +
        '(not in the data, an unknown object, out of its subject), as their folded words (up to 100 characters), with no ' +
        'conversation, device or time of day kept. `requests`: residents\' requests per day and type, `{day, typeCode, typeName, ' +
        'created, closed, medianHoursToClose}` (the median, in hours, of the time the requests closed that day took), for the days ' +
        'and types with any. `cityGroupId` names one group ' +
        '(one outside the agent\'s groups answers 404, like an unknown one); without it, every group of the agent (a super ' +
        'admin: every city). A date that is not a real `YYYY-MM-DD`, or `to` before `from`: 400.',
      querystring: AnalyticsQuerySchema,
      response: { 200: AnalyticsSchema, ...guardErrors, 404: ErrorSchema },
    },
  }, async (request) => {
    const agent = adminAgentOf(request);
    const range = analyticsRange(request.query, app.clock());
    const groups = await requestedGroupScope(app.db, agent, request.query.cityGroupId);
    // This instance's latest searches first, so that the answer holds them.
    await counts.flush();
    const cityIds = await citiesOfGroups(app.db, groups);
    const [found, chat, requests] = await Promise.all([
      searchAnalytics(app.db, cityIds, range.from, range.to, PER_DAY),
      chatAnalytics(app.db, cityIds, range.from, range.to, PER_DAY),
      requestAnalytics(app.db, cityIds, range.from, range.to),
    ]);
    return { from: range.from, to: range.to, days: searchDays(range, found, chat), queryLabels: queryLabels(found), requests };
  });
}
