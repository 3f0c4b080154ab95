import type { FastifyInstance } from 'fastify';
import { parentPath, parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { badgeStore } from './admin-badges.ts';
import { challengeStore } from './admin-challenges.ts';
import { quizQuestionStore } from './admin-quiz-questions.ts';
import { serieStore } from './admin-series.ts';
import { badgeSchemas, challengeSchemas, quizQuestionSchemas, serieSchemas } from './admin-schemas.ts';
import { withDisplayName } from '../http/plugin-name.ts';

const PUBLISHED = 'Recorded in the audit log; the public challenges and city answer the change within a second.';
const stale = (kind: string) => `With \`If-Match\`, 412 when the ${kind} changed since it was read.`;
const outside = (parent: string) => `A ${parent} outside the agent’s groups answers 404, like an unknown one.`;
const challengeParent = parentPath('/challenges', 'challengeId', 'Challenge id');

/** `/admin/cities/:cityId/quiz-questions` and `/admin/quiz-questions/:id`: the city's data, for agents holding CITIES. */
async function quizQuestionRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  const checked = 'Checked with the import bundle’s rule (400 with a French message naming the field): `correctWasteTypeId` is a waste type of the same city.';
  registerAdminResource(app, {
    path: '/quiz-questions',
    parent: parents.city,
    schemas: quizQuestionSchemas,
    docs: {
      list: { summary: 'A city’s quiz questions, by order then material', description: `Needs CITIES. The listing envelope. ${outside('city')}` },
      create: { summary: 'Create a quiz question of a city', description: `Needs CITIES. ${checked} ${outside('city')} ${PUBLISHED}` },
      get: { summary: 'One quiz question, with its ETag', description: `Needs CITIES. ${outside('question’s city')}` },
      update: { summary: 'Change a quiz question (partial)', description: `Needs CITIES. ${stale('question')} ${checked} A question keeps its city. ${PUBLISHED}` },
      remove: {
        summary: 'Delete a quiz question',
        description:
          `Needs CITIES. ${stale('question')} A question still in a challenge’s serie answers 409 (the database would take it out of the ` +
          'serie silently, changing a quiz the challenge managers own): take it out of the series first (`PATCH /admin/series/{id}` with ' +
          `its \`quizQuestionIds\`). ${PUBLISHED}`,
      },
    },
    deleteConflict: true,
    service: adminService(quizQuestionStore),
  });
}

/** Challenges, their badges and series, for agents holding CHALLENGES. */
async function challengeRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CHALLENGES');
  const challengeChecked =
    'Checked with the import bundle’s rules (400 with a French message naming the field): `endDate` on or after `startDate`; ' +
    '`requiredChallengeId` a challenge of the same city whose own requirements never lead back to this one (no cycle).';
  registerAdminResource(app, {
    path: '/challenges',
    parent: parents.city,
    schemas: challengeSchemas,
    docs: {
      list: {
        summary: 'A city’s challenges, available or not, by order then name',
        description: `Needs CHALLENGES. The listing envelope; each challenge with its badge and series. ${outside('city')}`,
      },
      create: {
        summary: 'Create a challenge of a city',
        description: `Needs CHALLENGES. ${challengeChecked} Its badge and series are created at their own paths. ${outside('city')} ${PUBLISHED}`,
      },
      get: { summary: 'One challenge with its badge and series, with its ETag', description: `Needs CHALLENGES. ${outside('challenge’s city')}` },
      update: {
        summary: 'Change a challenge (partial; not its badge or series)',
        description: `Needs CHALLENGES. ${stale('challenge, its badge or one of its series')} ${challengeChecked} A challenge keeps its city. ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete a challenge with its badge and series',
        description:
          `Needs CHALLENGES. ${stale('challenge')} A challenge another one requires answers 409 (change their \`requiredChallengeId\` ` +
          'first); so does a challenge devices have completed (deleting it would erase their progress and badges): disable it ' +
          `(\`enabled: false\`) instead. ${PUBLISHED}`,
      },
    },
    deleteConflict: true,
    service: adminService(challengeStore),
  });

  registerAdminResource(app, {
    path: '/badges',
    parent: challengeParent,
    schemas: badgeSchemas,
    docs: {
      list: { summary: 'A challenge’s badge (none or one)', description: `Needs CHALLENGES. The listing envelope. ${outside('challenge’s city')}` },
      create: {
        summary: 'Give a challenge its badge',
        description:
          `Needs CHALLENGES. A challenge has at most one badge (the import bundle’s \`badge\`): a second answers 409. ${outside('challenge’s city')} ` +
          `The devices that completed the challenge show it at once. ${PUBLISHED}`,
      },
      get: { summary: 'One badge, with its ETag', description: `Needs CHALLENGES. ${outside('badge’s city')}` },
      update: { summary: 'Change a badge (partial)', description: `Needs CHALLENGES. ${stale('badge')} A badge keeps its challenge. ${PUBLISHED}` },
      remove: {
        summary: 'Delete a badge',
        description: `Needs CHALLENGES. ${stale('badge')} The challenge and its completions stay; their badge is gone. ${PUBLISHED}`,
      },
    },
    createConflict: true,
    service: adminService(badgeStore),
  });

  const serieChecked =
    'Checked with the import bundle’s rule (400 with a French message naming the field): `quizQuestionIds` are quiz questions of the ' +
    'challenge’s city, each once; the list replaces the whole serie’s.';
  registerAdminResource(app, {
    path: '/series',
    parent: challengeParent,
    schemas: serieSchemas,
    docs: {
      list: { summary: 'A challenge’s series, by order then name', description: `Needs CHALLENGES. The listing envelope. ${outside('challenge’s city')}` },
      create: { summary: 'Create a serie of a challenge', description: `Needs CHALLENGES. ${serieChecked} ${outside('challenge’s city')} ${PUBLISHED}` },
      get: { summary: 'One serie with its quiz question ids, with its ETag', description: `Needs CHALLENGES. ${outside('serie’s city')}` },
      update: { summary: 'Change a serie (partial)', description: `Needs CHALLENGES. ${stale('serie')} ${serieChecked} A serie keeps its challenge. ${PUBLISHED}` },
      remove: { summary: 'Delete a serie', description: `Needs CHALLENGES. ${stale('serie')} Its quiz questions stay. ${PUBLISHED}` },
    },
    service: adminService(serieStore),
  });
}

/**
 * The admin routes of the challenges' area (docs/api.md, the admin API): quiz questions are the city's data (CITIES), the
 * challenges with their badges and series the challenge managers' (CHALLENGES); each plugin holds its own guard.
 */
export default async function challengeAdminRoutes(app: FastifyInstance) {
  await app.register(withDisplayName(quizQuestionRoutes));
  await app.register(withDisplayName(challengeRoutes));
}
