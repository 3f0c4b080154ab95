import type { FastifyInstance } from 'fastify';
import { parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { cannedReplyStore } from './canned-replies.ts';
import { cannedReplySchemas } from './schemas.ts';

const AUDITED = 'Recorded in the audit log (`cannedReply`); not public data.';

/** `/admin/city-groups/:cityGroupId/canned-replies` and `/admin/canned-replies/:id`, for agents holding CHAT_CONVERSATIONS. */
export default async function consoleAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CHAT_CONVERSATIONS');
  registerAdminResource(app, {
    path: '/canned-replies',
    parent: parents.cityGroup,
    schemas: cannedReplySchemas,
    docs: {
      list: {
        summary: 'A city group’s canned replies, by title',
        description: 'Needs CHAT_CONVERSATIONS. The listing envelope. A group outside the agent’s groups answers 404, like an unknown one.',
      },
      create: {
        summary: 'Add a canned reply to a city group',
        description: `Needs CHAT_CONVERSATIONS. \`title\` 1 to 100 characters, \`content\` 1 to 2000, both stored trimmed. ${AUDITED}`,
      },
      get: {
        summary: 'One canned reply, with its ETag',
        description: 'Needs CHAT_CONVERSATIONS. A reply of a group outside the agent’s groups answers 404, like an unknown one.',
      },
      update: {
        summary: 'Change a canned reply (partial)',
        description: `Needs CHAT_CONVERSATIONS. With \`If-Match\`, 412 when the reply changed since it was read. ${AUDITED}`,
      },
      remove: {
        summary: 'Delete a canned reply',
        description: `Needs CHAT_CONVERSATIONS. With \`If-Match\`, 412 when the reply changed since it was read. ${AUDITED}`,
      },
    },
    service: adminService(cannedReplyStore),
  });
}
