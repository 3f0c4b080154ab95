import { iso } from '../kernel/french.ts';
import { toConversation, type ConversationRow } from '../chat/for-console.ts';
import type { DevicePseudonyms } from './pseudonym.ts';
import type { TicketRow, UsageDayRow } from './repository.ts';
import type { ConsoleConversation, Ticket, UsageRow } from './schemas.ts';

/** Console rows to the API shapes of docs/console.md. */

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

/** Sums come from SQL as text (bigint); the API counts in numbers. */
export function toUsageRow(row: UsageDayRow): UsageRow {
  return {
    day: row.day,
    cityGroupId: row.city_group_id,
    requests: Number(row.requests),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
  };
}
