import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ConversationStatus, DB, TicketTable } from '../db/types.ts';
import type { PageRequest } from '../kernel/pagination.ts';
import { iso } from '../kernel/french.ts';
import { USAGE_TIME_ZONE, toConversation, type ConversationRow } from '../chat/repository.ts';
import type { DevicePseudonyms } from './pseudonym.ts';
import type { ConsoleConversation, Ticket, UsageRow } from './schemas.ts';

/** Console storage: conversations as agents see them, agent replies, tickets, language-model usage. No HTTP here. */

type TicketRow = Selectable<TicketTable>;

/** The day /chat/usage counts in, the same as the language model's daily budgets. */
export { USAGE_TIME_ZONE };

/** A conversation as agents see it: its device by pseudonym, never by id (a bearer secret). */
export function toConsoleConversation(row: ConversationRow, pseudonymOf: DevicePseudonyms): ConsoleConversation {
  const { deviceId, ...conversation } = toConversation(row);
  return { ...conversation, devicePseudonym: pseudonymOf(deviceId), assignedTo: row.assigned_to };
}

export function toTicket(row: TicketRow): Ticket {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    subject: row.subject,
    description: row.description,
    status: row.status,
    createdAt: iso(row.created_at)!,
  };
}

export interface InboxFilters {
  status?: ConversationStatus;
  assignedTo?: string;
}

/** Conversations of the given groups, most recent activity first (never-written-to ones last), one page and the total. */
export async function inbox(
  db: Kysely<DB>,
  cityGroupIds: string[],
  filters: InboxFilters,
  page: PageRequest,
): Promise<{ rows: ConversationRow[]; total: number }> {
  if (cityGroupIds.length === 0) return { rows: [], total: 0 };
  let query = db.selectFrom('conversation').where('city_group_id', 'in', cityGroupIds);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.assignedTo !== undefined) query = query.where('assigned_to', '=', filters.assignedTo);
  const count = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const offset = (page.page - 1) * page.pageSize;
  if (offset >= total) return { rows: [], total };
  const rows = await query
    .selectAll()
    .orderBy('last_message_at', (ob) => ob.desc().nullsLast())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset(offset)
    .execute();
  return { rows, total };
}

/** A conversation of one of the given groups, or null (unknown and out-of-reach conversations alike). */
export async function findConversationOfGroups(db: Kysely<DB>, id: string, cityGroupIds: string[]): Promise<ConversationRow | null> {
  if (cityGroupIds.length === 0) return null;
  const row = await db
    .selectFrom('conversation')
    .selectAll()
    .where('id', '=', id)
    .where('city_group_id', 'in', cityGroupIds)
    .executeTakeFirst();
  return row ?? null;
}

export async function ticketsOf(db: Kysely<DB>, conversationId: string): Promise<TicketRow[]> {
  return db
    .selectFrom('ticket')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function setAssignee(db: Kysely<DB>, id: string, agentId: string | null, now: Date): Promise<ConversationRow> {
  return db
    .updateTable('conversation')
    .set({ assigned_to: agentId, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Moves a conversation from `from` to `to`, only if it still is in `from` (another agent may have moved it
 * meanwhile); null when it was not.
 */
export async function moveStatus(
  db: Kysely<DB>,
  id: string,
  from: ConversationStatus,
  to: ConversationStatus,
  now: Date,
): Promise<ConversationRow | null> {
  const row = await db
    .updateTable('conversation')
    .set({ status: to, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Stores an agent's reply and hands the conversation to a person (WITH_AGENT), in one transaction;
 * the reply's author takes the conversation when nobody holds it. Null when the conversation is CLOSED
 * (checked in the same statement, so a concurrent close wins cleanly).
 */
export async function insertAgentReply(
  db: Kysely<DB>,
  values: { conversationId: string; agentId: string; content: string; now: Date },
) {
  return db.transaction().execute(async (trx) => {
    const conversation = await trx
      .updateTable('conversation')
      .set((eb) => ({
        status: 'WITH_AGENT' as const,
        assigned_to: eb.fn.coalesce('assigned_to', eb.val(values.agentId)),
        last_message_at: values.now,
        updated_at: values.now,
      }))
      .where('id', '=', values.conversationId)
      .where('status', '<>', 'CLOSED')
      .returningAll()
      .executeTakeFirst();
    if (!conversation) return null;
    const message = await trx
      .insertInto('message')
      .values({
        id: randomUUID(),
        conversation_id: values.conversationId,
        role: 'agent',
        content: values.content,
        // An agent's reply is about no particular place: the citizen's place stays the conversation's.
        place_id: null,
        author_id: values.agentId,
        created_at: values.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { conversation, message };
  });
}

export async function insertTicket(
  db: Kysely<DB>,
  values: { conversationId: string; subject: string; description: string; createdBy: string; now: Date },
): Promise<TicketRow> {
  return db
    .insertInto('ticket')
    .values({
      id: randomUUID(),
      conversation_id: values.conversationId,
      subject: values.subject,
      description: values.description,
      status: 'OPEN',
      created_by: values.createdBy,
      created_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Language-model usage of the given groups per day (in USAGE_TIME_ZONE) and group, for the days
 * `from` to `to` included (YYYY-MM-DD), by day then group. Days without usage have no row.
 */
export async function usagePerDay(db: Kysely<DB>, cityGroupIds: string[], from: string, to: string): Promise<UsageRow[]> {
  if (cityGroupIds.length === 0) return [];
  const zone = sql.lit(USAGE_TIME_ZONE);
  const day = sql<string>`to_char(created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('llm_usage')
    .select([
      day.as('day'),
      'city_group_id',
      (eb) => eb.fn.countAll<string>().as('requests'),
      (eb) => eb.fn.sum<string>('prompt_tokens').as('prompt_tokens'),
      (eb) => eb.fn.sum<string>('completion_tokens').as('completion_tokens'),
    ])
    .where('city_group_id', 'in', cityGroupIds)
    .where('created_at', '>=', sql<Date>`(${from}::date)::timestamp AT TIME ZONE ${zone}`)
    .where('created_at', '<', sql<Date>`(${to}::date + 1)::timestamp AT TIME ZONE ${zone}`)
    .groupBy([day, 'city_group_id'])
    .orderBy(day)
    .orderBy('city_group_id')
    .execute();
  return rows.map((r) => ({
    day: r.day,
    cityGroupId: r.city_group_id,
    requests: Number(r.requests),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
  }));
}
