import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { errors, messages } from '../kernel/errors.ts';
import { pageMeta, type PageRequest } from '../kernel/pagination.ts';
import { isUuid } from '../kernel/schemas.ts';
import { formatDayNumber, todayIn } from '../kernel/dates.ts';
import { normalizeText } from './text-match.ts';
import { assistantState } from './question.ts';
import { ASSISTANT_HISTORY_MESSAGES, type AssistantReply, type ChatTurn } from './assistant.ts';
import { answerInWorker, type AssistantPool } from './assistant-pool.ts';
import type { KnowledgeLoader } from './knowledge-cache.ts';
import type { ModelCallBudget } from './llm-budget.ts';
import { llmAnswer, llmConfigured, ModelBudgetSpent } from './llm.ts';
import { toConversation, toMessage } from './mapper.ts';
import * as repo from './repository.ts';
import {
  MAX_CONVERSATION_MESSAGES,
  MAX_MESSAGE_LENGTH,
  MESSAGE_PAGE_SIZE,
  type Availability,
  type ConversationApi,
  type MessageApi,
} from './schemas.ts';

/** The chat rules of docs/assistant.md, between the routes and the storage. */

export async function availability(db: Kysely<DB>, query: { cityId?: string; cityGroupId?: string }): Promise<Availability> {
  if (query.cityId !== undefined) {
    const city = await repo.findActiveChatCity(db, query.cityId);
    if (!city) return { enabled: false, cityGroupId: null, reason: 'city_not_found' };
    if (!city.city_group_id) return { enabled: false, cityGroupId: null, reason: 'no_city_group' };
    return city.chat_enabled
      ? { enabled: true, cityGroupId: city.city_group_id, reason: 'enabled' }
      : { enabled: false, cityGroupId: city.city_group_id, reason: 'module_disabled' };
  }
  if (query.cityGroupId !== undefined) {
    const group = await repo.findChatGroup(db, query.cityGroupId);
    if (!group) return { enabled: false, cityGroupId: null, reason: 'city_group_not_found' };
    return group.chat_enabled
      ? { enabled: true, cityGroupId: group.id, reason: 'enabled' }
      : { enabled: false, cityGroupId: group.id, reason: 'module_disabled' };
  }
  throw errors.chatNeedsId();
}

export async function createConversation(
  db: Kysely<DB>,
  body: { deviceId: string; cityId: string; cityGroupId?: string | null },
  now: Date,
): Promise<ConversationApi> {
  const city = await repo.findActiveChatCity(db, body.cityId);
  if (!city) throw errors.cityNotFound();
  if (body.cityGroupId != null && body.cityGroupId !== city.city_group_id) throw errors.chatGroupMismatch();
  if (!city.city_group_id) throw errors.chatNoCityGroup();
  if (!city.chat_enabled) throw errors.chatModuleDisabled();
  // A city with a single collection place needs no question: the assistant answers for that place.
  const places = await repo.placeIdsOfCity(db, city.id);
  const row = await repo.insertConversation(db, {
    device_id: body.deviceId,
    city_id: city.id,
    city_group_id: city.city_group_id,
    place_id: places.length === 1 ? places[0] : null,
    status: 'OPEN',
    created_at: now,
    updated_at: now,
  });
  return toConversation(row);
}

/** The device a conversation belongs to (the chat limit counts per device); null for a malformed or unknown id. */
export async function deviceOfConversation(db: Kysely<DB>, id: string | undefined): Promise<string | null> {
  if (!isUuid(id)) return null;
  return (await repo.findConversation(db, id))?.device_id ?? null;
}

async function existingConversation(db: Kysely<DB>, id: string): Promise<repo.ConversationRow> {
  const conversation = await repo.findConversation(db, id);
  if (!conversation) throw errors.conversationNotFound();
  return conversation;
}

export async function setLocation(
  db: Kysely<DB>,
  id: string,
  body: { cityId: string; placeId: string },
  now: Date,
): Promise<ConversationApi> {
  const conversation = await existingConversation(db, id);
  const city = await repo.findActiveChatCity(db, body.cityId);
  if (!city || city.city_group_id !== conversation.city_group_id) throw errors.chatLocationCity();
  if (!(await repo.isPlaceOfCity(db, body.placeId, city.id))) throw errors.chatLocationPlace();
  return toConversation(await repo.updateConversation(db, id, { city_id: city.id, place_id: body.placeId, updated_at: now }));
}

export async function listConversations(db: Kysely<DB>, deviceId: string, page: PageRequest) {
  const { rows, total } = await repo.conversationsOfDevice(db, deviceId, page);
  return { data: rows.map(toConversation), meta: pageMeta(page, total) };
}

/** One page of a conversation's messages, oldest first, and the id to ask the page before it with (null: none). */
export interface MessagePage {
  messages: MessageApi[];
  olderBefore: string | null;
}

/**
 * The MESSAGE_PAGE_SIZE most recent messages, or those before the message `before`: a conversation of any length
 * costs one bounded read. `before` not a message of this conversation: 400.
 */
export async function messagePage(db: Kysely<DB>, id: string, before?: string): Promise<MessagePage> {
  const page = await repo.messagePage(db, id, { limit: MESSAGE_PAGE_SIZE, before });
  if (!page) throw errors.messageCursor();
  return { messages: page.rows.map(toMessage), olderBefore: page.older ? page.rows[0].id : null };
}

export async function listMessages(db: Kysely<DB>, id: string, before?: string): Promise<MessagePage> {
  await existingConversation(db, id);
  return messagePage(db, id, before);
}

export interface SendContext {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  now: Date;
  /** The worker threads of the built-in assistant. */
  assistants: AssistantPool;
  /** The city data the assistants answer from (knowledge-cache.ts). */
  knowledgeOf: KnowledgeLoader;
  /** The language model's budgets for this message: its client IP's and its conversation group's. */
  modelBudgets: (cityGroupId: string) => ModelCallBudget;
}

/**
 * Stores the citizen's message and, unless a person holds the conversation, the assistant's answer. The answer is
 * made before anything is stored: a message the assistant could not take (503) leaves no trace and may be sent again.
 */
export async function sendMessage(
  ctx: SendContext,
  id: string,
  body: { content: string; placeId?: string | null },
): Promise<{ status: 201 | 202; message: MessageApi }> {
  const { db, now } = ctx;
  const conversation = await existingConversation(db, id);
  if (conversation.status === 'CLOSED') throw errors.conversationClosed();
  const content = body.content.trim();
  if (content.length < 1 || content.length > MAX_MESSAGE_LENGTH) throw errors.contentLength(MAX_MESSAGE_LENGTH);
  const givenPlace = body.placeId ?? null;
  if (givenPlace && !(await repo.isPlaceOfCity(db, givenPlace, conversation.city_id))) throw errors.chatMessagePlace();

  // Only the last messages are read: what the assistant and the model look back on, whatever the conversation's length.
  const recent = (await repo.messagePage(db, id, { limit: ASSISTANT_HISTORY_MESSAGES }))!;
  if (recent.older && (await repo.holdsMessages(db, id, MAX_CONVERSATION_MESSAGES))) {
    throw errors.conversationFull(MAX_CONVERSATION_MESSAGES);
  }
  const history: ChatTurn[] = recent.rows.map((m) => ({ role: m.role, content: m.content }));
  let placeId = givenPlace ?? conversation.place_id;
  const held = conversation.status === 'WAITING_AGENT' || conversation.status === 'WITH_AGENT';
  const reply = held ? null : await assistantReply(ctx, conversation, placeId, history, content);

  const userMessage = await repo.insertMessage(db, { conversation_id: id, role: 'user', content, place_id: givenPlace, created_at: now });
  if (!reply) {
    await repo.updateConversation(db, id, { place_id: placeId, last_message_at: now, updated_at: now });
    return { status: 202, message: toMessage(userMessage) };
  }
  placeId = reply.place?.id ?? placeId;
  const assistantMessage = await repo.insertMessage(db, {
    conversation_id: id,
    role: 'assistant',
    content: reply.content,
    place_id: placeId,
    created_at: now,
  });
  await repo.updateConversation(db, id, {
    place_id: placeId,
    last_message_at: now,
    updated_at: now,
    assistant_state: JSON.stringify(reply.state),
    ...(reply.handoff ? { status: 'WAITING_AGENT' as const } : {}),
  });
  // What was asked, for the city's analytics: the topic, and the words of a question left unanswered; never the
  // conversation or the device. Counting must not fail a message that is stored.
  try {
    await repo.addChatCount(db, {
      day: formatDayNumber(todayIn(reply.timeZone, now)),
      cityId: conversation.city_id,
      topic: reply.topic,
      question: reply.unanswered ? unansweredWords(content) : '',
    });
  } catch (err) {
    ctx.log.warn({ err }, 'chat counts: one answer not counted');
  }
  return { status: 201, message: toMessage(assistantMessage) };
}

/** The language model when configured and within its budgets (falling back on any failure), else the built-in assistant. */
async function assistantReply(
  ctx: SendContext,
  conversation: repo.ConversationRow,
  placeId: string | null,
  history: ChatTurn[],
  text: string,
): Promise<AssistantReply & { timeZone: string | null }> {
  const knowledge = await ctx.knowledgeOf(conversation.city_id, ctx.now);
  const state = assistantState(conversation.assistant_state);
  if (!knowledge) return { content: messages.chatCityGone, place: null, handoff: false, state, topic: 'Hors sujet', unanswered: false, timeZone: null };
  const timeZone = knowledge.timeZone;
  const place = knowledge.city.wasteCollectionPlaces.find((p) => p.id === placeId) ?? null;
  const input = { knowledge, place, history, state, text, now: ctx.now };
  const cityGroupId = conversation.city_group_id;
  if (llmConfigured(ctx.config)) {
    try {
      return { ...(await llmAnswer({ ...ctx, callBudget: ctx.modelBudgets(cityGroupId) }, { ...input, conversationId: conversation.id, cityGroupId })), timeZone };
    } catch (err) {
      // No conversation id in the log: with it, anyone reading the log could read the conversation.
      if (err instanceof ModelBudgetSpent) ctx.log.info({ budget: err.budget, cityGroupId }, 'language-model budget spent: the built-in assistant answers');
      else ctx.log.warn({ err, cityGroupId }, 'language model failed: the built-in assistant answers');
    }
  }
  return { ...(await answerInWorker(ctx.assistants, input)), timeZone };
}

/** A question left unanswered as the analytics list it: its words folded, at most 100 characters, cut between words. */
export function unansweredWords(content: string): string {
  const folded = normalizeText(content);
  if (folded.length <= 100) return folded;
  const cut = folded.slice(0, 100);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : 100);
}
