import type { Kysely } from 'kysely';
import type { ConversationStatus, DB } from '../db/types.ts';
import { BadRequest, NotFound } from '../http/errors.ts';
import { pageMeta, type PageRequest } from '../cms/pagination.ts';
import { messagesOf, toMessage, type ConversationRow } from '../chat/repository.ts';
import { MAX_MESSAGE_LENGTH, type MessageApi } from '../chat/schemas.ts';
import type { ConsoleAgent } from './token.ts';
import * as repo from './repository.ts';
import {
  MAX_TICKET_DESCRIPTION_LENGTH,
  MAX_TICKET_SUBJECT_LENGTH,
  MAX_USAGE_DAYS,
  type ConsoleConversation,
  type ConversationDetail,
  type Ticket,
  type UsageRow,
} from './schemas.ts';

/** The console rules of CONTRACT section 8, between the routes and the storage. */

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

export const consoleServiceMessages = {
  conversationNotFound: 'Conversation introuvable',
  replyLength: `Le champ « content » doit contenir de 1 à ${MAX_MESSAGE_LENGTH} caractères (espaces de début et de fin exclus).`,
  replyClosed: 'Cette conversation est close : rouvrez-la (statut « OPEN ») avant d’y répondre.',
  transition: (from: string, to: string) =>
    `Le champ « status » ne peut pas passer de « ${from} » à « ${to} » : ce changement de statut n’est pas permis.`,
  ticketSubject: `Le champ « subject » doit contenir de 1 à ${MAX_TICKET_SUBJECT_LENGTH} caractères (espaces de début et de fin exclus).`,
  ticketDescription: `Le champ « description » doit contenir de 1 à ${MAX_TICKET_DESCRIPTION_LENGTH} caractères (espaces de début et de fin exclus).`,
  usageOrder: 'Le paramètre « to » doit être une date égale ou postérieure à « from ».',
  usageSpan: `La période de « from » à « to » ne peut pas dépasser ${MAX_USAGE_DAYS} jours.`,
};

/** A conversation the agent may see; a conversation of another group answers 404 like an unknown one. */
async function reachableConversation(db: Kysely<DB>, agent: ConsoleAgent, id: string): Promise<ConversationRow> {
  const row = await repo.findConversationOfGroups(db, id, agent.cityGroupIds);
  if (!row) throw NotFound(consoleServiceMessages.conversationNotFound);
  return row;
}

export async function inbox(db: Kysely<DB>, agent: ConsoleAgent, filters: repo.InboxFilters, page: PageRequest) {
  const { rows, total } = await repo.inbox(db, agent.cityGroupIds, filters, page);
  return { data: rows.map(repo.toConsoleConversation), meta: pageMeta(page, total) };
}

/** The conversation with its messages and tickets: three queries, whatever their number. */
export async function conversationDetail(db: Kysely<DB>, agent: ConsoleAgent, id: string): Promise<ConversationDetail> {
  const row = await reachableConversation(db, agent, id);
  const [messages, tickets] = await Promise.all([messagesOf(db, id), repo.ticketsOf(db, id)]);
  return { ...repo.toConsoleConversation(row), messages: messages.map(toMessage), tickets: tickets.map(repo.toTicket) };
}

/** Records who holds the conversation; the status does not change (a reply or a status change moves it). */
export async function assign(
  db: Kysely<DB>,
  agent: ConsoleAgent,
  id: string,
  agentId: string | null,
  now: Date,
): Promise<ConsoleConversation> {
  await reachableConversation(db, agent, id);
  return repo.toConsoleConversation(await repo.setAssignee(db, id, agentId, now));
}

/** The agent's answer to the citizen: the conversation goes WITH_AGENT, and to the agent when nobody held it. */
export async function reply(db: Kysely<DB>, agent: ConsoleAgent, id: string, content: string, now: Date): Promise<MessageApi> {
  const text = content.trim();
  if (text.length < 1 || text.length > MAX_MESSAGE_LENGTH) throw BadRequest(consoleServiceMessages.replyLength);
  await reachableConversation(db, agent, id);
  const stored = await repo.insertAgentReply(db, { conversationId: id, agentId: agent.id, content: text, now });
  if (!stored) throw BadRequest(consoleServiceMessages.replyClosed);
  return toMessage(stored.message);
}

export async function changeStatus(
  db: Kysely<DB>,
  agent: ConsoleAgent,
  id: string,
  to: ConversationStatus,
  now: Date,
): Promise<ConsoleConversation> {
  // Checked against the status read, written only if it is still that one; a concurrent change means reading again.
  for (let attempt = 0; ; attempt++) {
    const current = await reachableConversation(db, agent, id);
    if (!STATUS_TRANSITIONS[current.status].includes(to)) throw BadRequest(consoleServiceMessages.transition(current.status, to));
    const moved = await repo.moveStatus(db, id, current.status, to, now);
    if (moved) return repo.toConsoleConversation(moved);
    if (attempt >= 2) throw BadRequest(consoleServiceMessages.transition(current.status, to));
  }
}

export async function createTicket(
  db: Kysely<DB>,
  agent: ConsoleAgent,
  id: string,
  body: { subject: string; description: string },
  now: Date,
): Promise<Ticket> {
  const subject = body.subject.trim();
  const description = body.description.trim();
  if (subject.length < 1 || subject.length > MAX_TICKET_SUBJECT_LENGTH) throw BadRequest(consoleServiceMessages.ticketSubject);
  if (description.length < 1 || description.length > MAX_TICKET_DESCRIPTION_LENGTH) {
    throw BadRequest(consoleServiceMessages.ticketDescription);
  }
  await reachableConversation(db, agent, id);
  const row = await repo.insertTicket(db, { conversationId: id, subject, description, createdBy: agent.id, now });
  return repo.toTicket(row);
}

const DAY_MS = 86_400_000;

export async function usage(db: Kysely<DB>, agent: ConsoleAgent, from: string, to: string): Promise<UsageRow[]> {
  // YYYY-MM-DD strings are real dates (schema); at UTC midnight their difference is a whole number of days.
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw BadRequest(consoleServiceMessages.usageOrder);
  if (days > MAX_USAGE_DAYS) throw BadRequest(consoleServiceMessages.usageSpan);
  return repo.usagePerDay(db, agent.cityGroupIds, from, to);
}
