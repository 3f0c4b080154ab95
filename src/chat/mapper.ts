import { iso, timestamps } from '../kernel/french.ts';
import type { ConversationRow, MessageRow } from './repository.ts';
import type { ConversationApi, MessageApi } from './schemas.ts';

/** Chat rows to the API shapes of docs/assistant.md: the one place where a stored column becomes a field. */

export function toConversation(row: ConversationRow): ConversationApi {
  return {
    id: row.id,
    deviceId: row.device_id,
    cityId: row.city_id,
    cityGroupId: row.city_group_id,
    placeId: row.place_id,
    status: row.status,
    ...timestamps(row),
    lastMessageAt: iso(row.last_message_at),
  };
}

export function toMessage(row: MessageRow): MessageApi {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    placeId: row.place_id,
    createdAt: iso(row.created_at)!,
  };
}
