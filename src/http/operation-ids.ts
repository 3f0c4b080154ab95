import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Every OpenAPI operation's `operationId`, so that a client generated from /openapi.json has readable names
 * (docs/api.md). A route may declare its own in its schema; the others are derived from the method and the path:
 *
 * - the verb: `get`, or `list` for a GET ending on a collection; `create` for a POST to a collection, or the
 *   action itself (`POST /auth/login` → `login`, `POST /admin/content/check` → `checkAdminContent`); `update` for
 *   a PATCH, `delete` for a DELETE;
 * - the audience after it: nothing for /public and /auth, `Admin` for the back office, `Console` for the agents'
 *   chat console (the same resource is often both public and admin);
 * - the resource: the path's literal segments in camelCase, in the singular before the record's id or a segment
 *   under them (`/admin/cities/{cityId}/waste-types` → `listAdminCityWasteTypes`), and a parameter that names
 *   something else as `By…` (`/public/chat/conversations/{deviceId}` → `getChatConversationsByDeviceId`).
 *
 * A test holds them unique and camelCase over the whole document.
 */

const AUDIENCES: Record<string, string> = { public: '', auth: '', admin: 'Admin', chat: 'Console' };

/** Words that are the same in the singular and the plural, or not countable. */
const UNINFLECTED = new Set(['series', 'media', 'status', 'analytics', 'progress', 'usage', 'news', 'cms', 'faq']);

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** `waste-types` → `WasteTypes`, `calendar.ics` → `CalendarIcs`. */
const pascal = (segment: string) => segment.split(/[-_.]/).filter(Boolean).map(capitalise).join('');

export function singular(word: string): string {
  const lower = word.toLowerCase();
  if ([...UNINFLECTED].some((w) => lower.endsWith(w))) return word;
  if (lower.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (lower.endsWith('sses')) return word.slice(0, -2);
  if (lower.endsWith('s') && !lower.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Collections whose name has no plural of its own. */
const UNINFLECTED_COLLECTIONS = new Set(['series', 'media', 'faq']);
const isCollection = (segment: string) =>
  !segment.includes('.') && (UNINFLECTED_COLLECTIONS.has(segment) || singular(segment) !== segment);

type Part = { literal: string } | { param: string };

/** The operation id of `method path` (`path` as Fastify writes it: `/public/cities/:id`). */
export function operationIdOf(method: string, path: string): string {
  const raw = path.split('/').filter(Boolean);
  const audience = raw[0] !== undefined && raw[0] in AUDIENCES ? AUDIENCES[raw.shift()!] : '';
  // `by-id` says nothing more than the parameter after it.
  const parts: Part[] = raw.filter((s) => s !== 'by-id').map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
  const last = parts.at(-1);
  let verb = method === 'PATCH' ? 'update' : method === 'DELETE' ? 'delete' : 'get';
  if (last && 'literal' in last && method === 'GET' && isCollection(last.literal)) verb = 'list';
  if (last && 'literal' in last && method === 'POST') {
    if (isCollection(last.literal)) {
      verb = 'create';
      parts[parts.length - 1] = { literal: singular(last.literal) };
    } else {
      // An action: its word is the verb, the record it acts on follows.
      verb = pascal(last.literal).replace(/^./, (c) => c.toLowerCase());
      parts.pop();
      const object = parts.at(-1);
      if (object && 'literal' in object) parts[parts.length - 1] = { literal: singular(object.literal) };
    }
  }
  const words: string[] = [];
  parts.forEach((part, i) => {
    if ('literal' in part) {
      const next = parts[i + 1];
      // A segment is singular before its record's id and before a segment under it (`reminders/subscriptions`).
      const named = next && ('literal' in next || namesRecordOf(part.literal, next.param));
      words.push(pascal(named ? singular(part.literal) : part.literal));
    } else {
      const previous = parts[i - 1];
      if (!(previous && 'literal' in previous && namesRecordOf(previous.literal, part.param))) words.push(`By${capitalise(part.param)}`);
    }
  });
  return `${verb}${audience}${words.join('')}`;
}

/** Whether `{param}` after `segment` is that segment's record (`cities/:cityId`, `sites/:slug`, `exceptions/:id`). */
function namesRecordOf(segment: string, param: string): boolean {
  if (param === 'id' || param === 'slug') return true;
  return param === `${pascal(singular(segment)).replace(/^./, (c) => c.toLowerCase())}Id`;
}

/** Gives every route registered from now on an `operationId`, unless its schema declares one. */
export function deriveOperationIds(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as { operationId?: string; hide?: boolean } | undefined;
    if (schema?.hide || schema?.operationId) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length !== 1) return;
    route.schema = { ...route.schema, operationId: operationIdOf(methods[0], route.url) } as RouteOptions['schema'];
  });
}
