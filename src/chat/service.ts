import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { BadRequest, Forbidden, NotFound, messages } from '../http/errors.ts';
import { pageMeta, type PageRequest } from '../cms/pagination.ts';
import { answer, type AssistantReply, type ChatTurn } from './assistant.ts';
import { llmAnswer, llmConfigured } from './llm.ts';
import * as repo from './repository.ts';
import { MAX_MESSAGE_LENGTH, type Availability, type ConversationApi, type MessageApi } from './schemas.ts';

/** The chat rules of CONTRACT section 7, between the routes and the storage. */

export async function availability(db: Kysely<DB>, query: { cityId?: string; cityGroupId?: string }): Promise<Availability> {
  if (query.cityId !== undefined) {
    const city = await repo.findChatCity(db, query.cityId);
    if (!city || !city.active) return { enabled: false, cityGroupId: null, reason: 'city_not_found' };
    if (!city.cityGroupId) return { enabled: false, cityGroupId: null, reason: 'no_city_group' };
    return city.chatEnabled
      ? { enabled: true, cityGroupId: city.cityGroupId, reason: 'enabled' }
      : { enabled: false, cityGroupId: city.cityGroupId, reason: 'module_disabled' };
  }
  if (query.cityGroupId !== undefined) {
    const group = await repo.findChatGroup(db, query.cityGroupId);
    if (!group) return { enabled: false, cityGroupId: null, reason: 'city_group_not_found' };
    return group.chatEnabled
      ? { enabled: true, cityGroupId: group.id, reason: 'enabled' }
      : { enabled: false, cityGroupId: group.id, reason: 'module_disabled' };
  }
  throw BadRequest(chatMessages.availabilityNeedsId);
}

export const chatMessages = {
  availabilityNeedsId: 'Le paramètre « cityId » ou « cityGroupId » est obligatoire.',
  conversationNotFound: 'Conversation introuvable',
  groupMismatch: 'Le champ « cityGroupId » ne correspond pas au groupement de la ville.',
  moduleDisabled: 'L’assistant n’est pas activé pour cette ville.',
  noCityGroup: 'Cette ville ne fait partie d’aucun groupement : l’assistant n’y est pas disponible.',
  locationCity: 'Le champ « cityId » doit désigner une ville active du groupement de la conversation.',
  locationPlace: 'Le champ « placeId » doit désigner un lieu de collecte de cette ville.',
  messagePlace: 'Le champ « placeId » doit désigner un lieu de collecte de la ville de la conversation.',
  contentLength: `Le champ « content » doit contenir de 1 à ${MAX_MESSAGE_LENGTH} caractères (espaces de début et de fin exclus).`,
  closed: 'Cette conversation est close : ouvrez-en une nouvelle.',
  cityGone: 'Les informations de cette ville ne sont plus disponibles. Un agent peut vous répondre : écrivez « parler à un agent ».',
};

export async function createConversation(
  db: Kysely<DB>,
  body: { deviceId: string; cityId: string; cityGroupId?: string | null },
  now: Date,
): Promise<ConversationApi> {
  const city = await repo.findChatCity(db, body.cityId);
  if (!city || !city.active) throw NotFound(messages.cityNotFound);
  if (body.cityGroupId != null && body.cityGroupId !== city.cityGroupId) throw BadRequest(chatMessages.groupMismatch);
  if (!city.cityGroupId) throw Forbidden(chatMessages.noCityGroup);
  if (!city.chatEnabled) throw Forbidden(chatMessages.moduleDisabled);
  // A city with a single collection place needs no question: the assistant answers for that place.
  const places = await repo.placeIdsOfCity(db, city.id);
  const row = await repo.insertConversation(db, {
    deviceId: body.deviceId,
    cityId: city.id,
    cityGroupId: city.cityGroupId,
    placeId: places.length === 1 ? places[0] : null,
    now,
  });
  return repo.toConversation(row);
}

async function existingConversation(db: Kysely<DB>, id: string): Promise<repo.ConversationRow> {
  const conversation = await repo.findConversation(db, id);
  if (!conversation) throw NotFound(chatMessages.conversationNotFound);
  return conversation;
}

export async function setLocation(
  db: Kysely<DB>,
  id: string,
  body: { cityId: string; placeId: string },
  now: Date,
): Promise<ConversationApi> {
  const conversation = await existingConversation(db, id);
  const city = await repo.findChatCity(db, body.cityId);
  if (!city || !city.active || city.cityGroupId !== conversation.city_group_id) throw BadRequest(chatMessages.locationCity);
  if (!(await repo.isPlaceOfCity(db, body.placeId, city.id))) throw BadRequest(chatMessages.locationPlace);
  return repo.toConversation(await repo.updateConversation(db, id, { cityId: city.id, placeId: body.placeId, now }));
}

export async function listConversations(db: Kysely<DB>, deviceId: string, page: PageRequest) {
  const { rows, total } = await repo.conversationsOfDevice(db, deviceId, page);
  return { data: rows.map(repo.toConversation), meta: pageMeta(page, total) };
}

export async function listMessages(db: Kysely<DB>, id: string): Promise<MessageApi[]> {
  await existingConversation(db, id);
  return (await repo.messagesOf(db, id)).map(repo.toMessage);
}

export interface SendContext {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  now: Date;
}

/** Stores the citizen's message and, unless a person holds the conversation, the assistant's answer. */
export async function sendMessage(
  ctx: SendContext,
  id: string,
  body: { content: string; placeId?: string | null },
): Promise<{ status: 201 | 202; message: MessageApi }> {
  const { db, now } = ctx;
  const conversation = await existingConversation(db, id);
  if (conversation.status === 'CLOSED') throw BadRequest(chatMessages.closed);
  const content = body.content.trim();
  if (content.length < 1 || content.length > MAX_MESSAGE_LENGTH) throw BadRequest(chatMessages.contentLength);
  const givenPlace = body.placeId ?? null;
  if (givenPlace && !(await repo.isPlaceOfCity(db, givenPlace, conversation.city_id))) throw BadRequest(chatMessages.messagePlace);

  const history: ChatTurn[] = (await repo.messagesOf(db, id)).map((m) => ({ role: m.role, content: m.content }));
  const userMessage = await repo.insertMessage(db, { conversationId: id, role: 'user', content, placeId: givenPlace, now });
  let placeId = givenPlace ?? conversation.place_id;
  await repo.updateConversation(db, id, { placeId, lastMessageAt: now, now });

  if (conversation.status === 'WAITING_AGENT' || conversation.status === 'WITH_AGENT') {
    return { status: 202, message: repo.toMessage(userMessage) };
  }

  const reply = await assistantReply(ctx, conversation, placeId, history, content);
  placeId = reply.place?.id ?? placeId;
  const assistantMessage = await repo.insertMessage(db, { conversationId: id, role: 'assistant', content: reply.content, placeId, now });
  await repo.updateConversation(db, id, {
    placeId,
    lastMessageAt: now,
    now,
    ...(reply.handoff ? { status: 'WAITING_AGENT' as const } : {}),
  });
  return { status: 201, message: repo.toMessage(assistantMessage) };
}

/** The language model when configured (falling back on any failure), else the built-in assistant. */
async function assistantReply(
  ctx: SendContext,
  conversation: repo.ConversationRow,
  placeId: string | null,
  history: ChatTurn[],
  text: string,
): Promise<AssistantReply> {
  const knowledge = await repo.loadCityKnowledge(ctx.db, conversation.city_id, ctx.now);
  if (!knowledge) return { content: chatMessages.cityGone, place: null, handoff: false };
  const place = knowledge.city.wasteCollectionPlaces.find((p) => p.id === placeId) ?? null;
  const input = { knowledge, place, history, text, now: ctx.now };
  if (llmConfigured(ctx.config)) {
    try {
      return await llmAnswer(ctx, { ...input, conversationId: conversation.id, cityGroupId: conversation.city_group_id });
    } catch (err) {
      ctx.log.warn({ err, conversationId: conversation.id }, 'language model failed: the built-in assistant answers');
    }
  }
  return answer(input);
}
