/**
 * What the agents' console (src/console) uses of the chat, and the only file of this folder it imports: the
 * conversation and message schemas it answers with, their mapper, the paging of a conversation's messages and of a
 * conversation listing, the message that a reply stores, and the limits and time zone it shares with the public chat.
 */
export {
  ConversationSchema,
  ConversationStatusSchema,
  MAX_MESSAGE_LENGTH,
  MESSAGE_PAGE_SIZE,
  MessagePageQuery,
  MessageSchema,
  type MessageApi,
} from './schemas.ts';
export { toConversation, toMessage } from './mapper.ts';
export {
  conversationPage,
  insertMessage,
  USAGE_TIME_ZONE,
  type ConversationOrder,
  type ConversationRow,
} from './repository.ts';
export { messagePage } from './service.ts';
