import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { ConversationStatus, DB, TicketTable } from '../db/types.ts';
import type { ChangeSource } from '../kernel/change-feed.ts';
import type { PageRequest } from '../kernel/pagination.ts';
import { conversationPage, insertMessage, USAGE_TIME_ZONE, type ConversationOrder, type ConversationRow } from '../chat/for-console.ts';

/** Console storage: conversations as agents see them, agent replies, tickets, language-model usage. Rows only, no HTTP. */

export type TicketRow = Selectable<TicketTable>;

/** The day /chat/usage counts in, the same as the language model's daily budgets. */
export { USAGE_TIME_ZONE };

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
  const query = db
    .selectFrom('conversation')
    .where('city_group_id', 'in', cityGroupIds)
    .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status!))
    .$if(filters.assignedTo !== undefined, (q) => q.where('assigned_to', '=', filters.assignedTo!));
  const byActivity: ConversationOrder = (q) =>
    q.orderBy('last_message_at', (ob) => ob.desc().nullsLast()).orderBy('created_at', 'desc').orderBy('id', 'desc');
  return conversationPage(query, byActivity, page);
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

/** A city's name (a conversation's commune), whatever its status; null for an unknown one. */
export async function cityNameOf(db: Kysely<DB>, cityId: string): Promise<string | null> {
  const row = await db.selectFrom('city').select('name').where('id', '=', cityId).executeTakeFirst();
  return row?.name ?? null;
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
    // An agent's reply is about no particular place: the citizen's place stays the conversation's.
    const message = await insertMessage(trx, {
      conversation_id: values.conversationId,
      role: 'agent',
      content: values.content,
      place_id: null,
      author_id: values.agentId,
      created_at: values.now,
    });
    return { conversation, message };
  });
}

export async function insertTicket(db: Kysely<DB>, values: Omit<Insertable<TicketTable>, 'id'>): Promise<TicketRow> {
  return db.insertInto('ticket').values({ id: randomUUID(), ...values }).returningAll().executeTakeFirstOrThrow();
}

/**
 * Language-model usage of the given groups per day (in USAGE_TIME_ZONE) and group, for the days
 * `from` to `to` included (YYYY-MM-DD), by day then group. Days without usage have no row.
 */
export async function usagePerDay(db: Kysely<DB>, cityGroupIds: string[], from: string, to: string) {
  if (cityGroupIds.length === 0) return [];
  const zone = sql.lit(USAGE_TIME_ZONE);
  const day = sql<string>`to_char(created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD')`;
  return db
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
}

/** One day and group of language-model usage; the sums are text (bigint), as SQL gives them. */
export type UsageDayRow = Awaited<ReturnType<typeof usagePerDay>>[number];

/** A conversation row with its change number (migration 0013), read as a number. */
export type ChangedConversationRow = ConversationRow & { seq: number };

/**
 * Conversations changed after change number `after` (of the given groups, or of every group), oldest change first:
 * the live inbox's poll and its catch-up.
 */
export async function conversationsChangedAfter(
  db: Kysely<DB>,
  after: number,
  limit: number,
  cityGroupIds: string[] | null = null,
): Promise<ChangedConversationRow[]> {
  if (cityGroupIds !== null && cityGroupIds.length === 0) return [];
  return db
    .selectFrom('conversation')
    .selectAll()
    .select(sql<number>`change_seq::float8`.as('seq'))
    .where('change_seq', '>', sql<string>`${Math.max(0, Math.floor(after))}::bigint`)
    .$if(cityGroupIds !== null, (q) => q.where('city_group_id', 'in', cityGroupIds!))
    .orderBy('change_seq')
    .limit(limit)
    .execute();
}

/** The latest change number of any conversation (0 when there is none). */
export async function latestConversationChange(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('conversation')
    .select(sql<number>`coalesce(max(change_seq), 0)::float8`.as('seq'))
    .executeTakeFirstOrThrow();
  return row.seq;
}

/** The conversations' change numbers as the live inbox's feed reads them (kernel/change-feed.ts). */
export const conversationChanges = (db: Kysely<DB>): ChangeSource<ChangedConversationRow> => ({
  latest: () => latestConversationChange(db),
  changedAfter: (after, limit) => conversationsChangedAfter(db, after, limit),
});
