import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ConversationStatus, DB, MessageRole } from '../../src/db/types.ts';
import { signConsoleToken, type ConsoleTokenClaims } from '../../src/auth/token.ts';
import { ids } from './city-fixtures.ts';

/** The console secret of the tests, and the environment that turns the console on with it. */
export const CONSOLE_SECRET = 'console-test-secret-0123456789abcdefghij';
export const consoleEnv = { CONSOLE_JWT_SECRET: CONSOLE_SECRET };

/** A second chat-enabled group with one city, whose conversations an agent of `ids.group` must not see. */
export const otherIds = {
  group: '10000000-0000-4000-8000-0000000000c1',
  city: '20000000-0000-4000-8000-0000000000c1',
};

export async function seedOtherGroup(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('city_group')
    .values({ id: otherIds.group, name: 'Quimper Bretagne Occidentale', type: 'Agglomération', code: 'QBO', siren: '200068120', chat_enabled: true })
    .execute();
  await db
    .insertInto('city')
    .values({ id: otherIds.city, name: 'Quimper', country: 'France', population: 63000, status: 'ACTIF', city_group_id: otherIds.group })
    .execute();
}

/** A token of the default agent (sub `agent-1`, group `ids.group`), valid for an hour from `now`. */
export function agentToken(
  claims: Partial<ConsoleTokenClaims> = {},
  options: { now?: Date; ttlSeconds?: number; secret?: string } = {},
): Promise<string> {
  return signConsoleToken(
    options.secret ?? CONSOLE_SECRET,
    { sub: 'agent-1', name: 'Awa Diallo', cityGroupIds: [ids.group], ...claims },
    { now: options.now ?? new Date(), ttlSeconds: options.ttlSeconds ?? 3600 },
  );
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsecured JWT (`alg: none`, empty signature), crafted by hand as an attacker would. */
export function unsecuredToken(payload: Record<string, unknown>): string {
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
}

export async function insertConversation(
  db: Kysely<DB>,
  values: {
    cityGroupId?: string;
    cityId?: string;
    placeId?: string | null;
    status?: ConversationStatus;
    assignedTo?: string | null;
    createdAt?: string;
    lastMessageAt?: string | null;
    deviceId?: string;
  } = {},
): Promise<string> {
  const id = randomUUID();
  const createdAt = values.createdAt ?? '2026-11-20T08:00:00.000Z';
  await db
    .insertInto('conversation')
    .values({
      id,
      device_id: values.deviceId ?? 'device-console-0001',
      city_id: values.cityId ?? ids.brest,
      city_group_id: values.cityGroupId ?? ids.group,
      place_id: values.placeId ?? null,
      status: values.status ?? 'OPEN',
      assigned_to: values.assignedTo ?? null,
      created_at: createdAt,
      updated_at: createdAt,
      last_message_at: values.lastMessageAt === undefined ? null : values.lastMessageAt,
    })
    .execute();
  return id;
}

export async function insertMessage(
  db: Kysely<DB>,
  values: { conversationId: string; role: MessageRole; content: string; createdAt: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('message')
    .values({
      id,
      conversation_id: values.conversationId,
      role: values.role,
      content: values.content,
      place_id: null,
      author_id: null,
      created_at: values.createdAt,
    })
    .execute();
  return id;
}

/**
 * `count` messages in one statement, alternately from the citizen and the assistant, one second apart from
 * `startAt`; their ids, oldest first.
 */
export async function insertMessages(
  db: Kysely<DB>,
  values: { conversationId: string; count: number; startAt: string },
): Promise<string[]> {
  const start = Date.parse(values.startAt);
  const rows = Array.from({ length: values.count }, (_, i) => ({
    id: randomUUID(),
    conversation_id: values.conversationId,
    role: (i % 2 ? 'assistant' : 'user') as MessageRole,
    content: `Message ${i + 1}`,
    place_id: null,
    author_id: null,
    created_at: new Date(start + i * 1000).toISOString(),
  }));
  if (rows.length > 0) await db.insertInto('message').values(rows).execute();
  return rows.map((r) => r.id);
}

export async function insertLlmUsage(
  db: Kysely<DB>,
  values: { cityGroupId: string; createdAt: string; promptTokens: number; completionTokens: number },
): Promise<void> {
  await db
    .insertInto('llm_usage')
    .values({
      id: randomUUID(),
      conversation_id: null,
      city_group_id: values.cityGroupId,
      model: 'test-model',
      prompt_tokens: values.promptTokens,
      completion_tokens: values.completionTokens,
      created_at: values.createdAt,
    })
    .execute();
}
