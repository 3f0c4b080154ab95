import type { Kysely } from 'kysely';
import type { ConversationStatus, DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { pageMeta, type PageRequest } from '../kernel/pagination.ts';
import { MAX_MESSAGE_LENGTH, messagePage, toMessage, type ConversationRow, type MessageApi } from '../chat/for-console.ts';
import { toConsoleConversation, toTicket, toUsageRow } from './mapper.ts';
import type { DevicePseudonyms } from './pseudonym.ts';
import type { ConsoleAgent } from '../auth/token.ts';
import * as repo from './repository.ts';
import { conversationPlace } from './place.ts';
import {
  MAX_TICKET_DESCRIPTION_LENGTH,
  MAX_TICKET_SUBJECT_LENGTH,
  MAX_USAGE_DAYS,
  type ConsoleConversation,
  type ConversationDetail,
  type Ticket,
  type UsageRow,
} from './schemas.ts';
import { MS_PER_DAY } from '../kernel/dates.ts';

/** The console rules of docs/console.md, between the routes and the storage. */

/**
 * The status changes an agent may make. OPEN: the assistant answers; WAITING_AGENT: the citizen asked for a
 * person; WITH_AGENT: a person answers; CLOSED: nobody does. Anything else (the same status included) is 400.
 */
export const STATUS_TRANSITIONS: Record<ConversationStatus, readonly ConversationStatus[]> = {
  OPEN: ['WAITING_AGENT', 'CLOSED'],
  WAITING_AGENT: ['WITH_AGENT', 'OPEN', 'CLOSED'],
  WITH_AGENT: ['OPEN', 'CLOSED'],
  CLOSED: ['OPEN'],
};

/** What the console's rules work with: the database, and the pseudonyms that stand for devices. */
export interface ConsoleContext {
  db: Kysely<DB>;
  pseudonymOf: DevicePseudonyms;
}

/** A conversation the agent may see; a conversation of another group answers 404 like an unknown one. */
async function reachableConversation(db: Kysely<DB>, agent: ConsoleAgent, id: string): Promise<ConversationRow> {
  const row = await repo.findConversationOfGroups(db, id, agent.cityGroupIds);
  if (!row) throw errors.conversationNotFound();
  return row;
}

/** A change of the live inbox (GET /chat/events): the conversation as the inbox lists it, and its change number. */
export interface InboxChange {
  seq: number;
  conversation: ConsoleConversation;
}

export const toInboxChange = ({ pseudonymOf }: Pick<ConsoleContext, 'pseudonymOf'>, row: repo.ChangedConversationRow): InboxChange => ({
  seq: row.seq,
  conversation: toConsoleConversation(row, pseudonymOf),
});

/** Most changes a reconnecting stream catches up with; past them, the console reloads its list instead. */
export const CATCH_UP_LIMIT = 500;

/**
 * What changed in the agent's groups after change number `after` (a reconnecting stream's `Last-Event-ID`), looking
 * `lookback` numbers behind it (see kernel/change-feed.ts); `complete` false when there was more than CATCH_UP_LIMIT.
 */
export async function changesSince(ctx: ConsoleContext, agent: ConsoleAgent, after: number, lookback: number) {
  const rows = await repo.conversationsChangedAfter(ctx.db, after - lookback, CATCH_UP_LIMIT + 1, agent.cityGroupIds);
  return { items: rows.slice(0, CATCH_UP_LIMIT).map((row) => toInboxChange(ctx, row)), complete: rows.length <= CATCH_UP_LIMIT };
}

export async function inbox({ db, pseudonymOf }: ConsoleContext, agent: ConsoleAgent, filters: repo.InboxFilters, page: PageRequest) {
  const { rows, total } = await repo.inbox(db, agent.cityGroupIds, filters, page);
  return { data: rows.map((row) => toConsoleConversation(row, pseudonymOf)), meta: pageMeta(page, total) };
}

/**
 * The conversation with one page of its messages (the most recent, or those before `before`), its tickets, its commune
 * and its place with the place's next collections: a few queries, whatever the conversation's length. `olderBefore`
 * asks for the page before, when there is one.
 */
export async function conversationDetail(
  { db, pseudonymOf }: ConsoleContext,
  agent: ConsoleAgent,
  id: string,
  before: string | undefined,
  now: Date,
): Promise<{ detail: ConversationDetail; olderBefore: string | null }> {
  const row = await reachableConversation(db, agent, id);
  const [page, tickets, cityName, place] = await Promise.all([
    messagePage(db, id, before),
    repo.ticketsOf(db, id),
    repo.cityNameOf(db, row.city_id),
    conversationPlace(db, row.city_id, row.place_id, now),
  ]);
  const detail = {
    ...toConsoleConversation(row, pseudonymOf),
    cityName: cityName ?? '',
    place,
    messages: page.messages,
    tickets: tickets.map(toTicket),
  };
  return { detail, olderBefore: page.olderBefore };
}

/** Records who holds the conversation; the status does not change (a reply or a status change moves it). */
export async function assign(
  { db, pseudonymOf }: ConsoleContext,
  agent: ConsoleAgent,
  id: string,
  agentId: string | null,
  now: Date,
): Promise<ConsoleConversation> {
  await reachableConversation(db, agent, id);
  return toConsoleConversation(await repo.setAssignee(db, id, agentId, now), pseudonymOf);
}

/** The agent's answer to the citizen: the conversation goes WITH_AGENT, and to the agent when nobody held it. */
export async function reply({ db }: ConsoleContext, agent: ConsoleAgent, id: string, content: string, now: Date): Promise<MessageApi> {
  const text = content.trim();
  if (text.length < 1 || text.length > MAX_MESSAGE_LENGTH) throw errors.contentLength(MAX_MESSAGE_LENGTH);
  await reachableConversation(db, agent, id);
  const stored = await repo.insertAgentReply(db, { conversationId: id, agentId: agent.id, content: text, now });
  if (!stored) throw errors.replyClosed();
  return toMessage(stored.message);
}

export async function changeStatus(
  { db, pseudonymOf }: ConsoleContext,
  agent: ConsoleAgent,
  id: string,
  to: ConversationStatus,
  now: Date,
): Promise<ConsoleConversation> {
  // Checked against the status read, written only if it is still that one; a concurrent change means reading again.
  for (let attempt = 0; ; attempt++) {
    const current = await reachableConversation(db, agent, id);
    if (!STATUS_TRANSITIONS[current.status].includes(to)) throw errors.statusTransition(current.status, to);
    const moved = await repo.moveStatus(db, id, current.status, to, now);
    if (moved) return toConsoleConversation(moved, pseudonymOf);
    if (attempt >= 2) throw errors.statusTransition(current.status, to);
  }
}

export async function createTicket(
  { db }: ConsoleContext,
  agent: ConsoleAgent,
  id: string,
  body: { subject: string; description: string },
  now: Date,
): Promise<Ticket> {
  const subject = body.subject.trim();
  const description = body.description.trim();
  if (subject.length < 1 || subject.length > MAX_TICKET_SUBJECT_LENGTH) throw errors.ticketSubject(MAX_TICKET_SUBJECT_LENGTH);
  if (description.length < 1 || description.length > MAX_TICKET_DESCRIPTION_LENGTH) {
    throw errors.ticketDescription(MAX_TICKET_DESCRIPTION_LENGTH);
  }
  await reachableConversation(db, agent, id);
  const row = await repo.insertTicket(db, { conversation_id: id, subject, description, status: 'OPEN', created_by: agent.id, created_at: now });
  return toTicket(row);
}


export async function usage({ db }: ConsoleContext, agent: ConsoleAgent, from: string, to: string): Promise<UsageRow[]> {
  // YYYY-MM-DD strings are real dates (schema); at UTC midnight their difference is a whole number of days.
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY + 1;
  if (days < 1) throw errors.dateOrder();
  if (days > MAX_USAGE_DAYS) throw errors.usageSpan(MAX_USAGE_DAYS);
  return (await repo.usagePerDay(db, agent.cityGroupIds, from, to)).map(toUsageRow);
}
