// Shapes of /chat (CONTRACT section 8) and of the history screens' /admin routes, as the console reads them.

export type ConversationStatus = 'OPEN' | 'WAITING_AGENT' | 'WITH_AGENT' | 'CLOSED';

export interface InboxConversation {
  id: string;
  devicePseudonym: string;
  cityId: string;
  cityGroupId: string;
  placeId: string | null;
  status: ConversationStatus;
  createdAt: string;
  updatedAt: string;
  lastMessageAt: string | null;
  assignedTo: string | null;
}

export interface ChatMessage {
  id: string;
  conversationId: string;
  role: 'user' | 'assistant' | 'agent';
  content: string;
  placeId: string | null;
  createdAt: string;
}

export interface Ticket {
  id: string;
  subject: string;
  description: string;
  status: 'OPEN' | 'CLOSED';
  createdAt: string;
}

export interface ConversationDetail extends InboxConversation {
  messages: ChatMessage[];
  tickets: Ticket[];
}

export interface CannedReply {
  id: string;
  cityGroupId: string;
  title: string;
  content: string;
}

export interface UsageRow {
  day: string;
  cityGroupId: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

export interface AuditEntry {
  id: string;
  at: string;
  userName: string;
  action: 'create' | 'update' | 'delete';
  entity: string;
  entityId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AnalyticsDay {
  day: string;
  topQueries: { query: string; count: number }[];
  notFound: { query: string; count: number }[];
  chatTopics: { topic: string; count: number }[];
  unanswered: { question: string; count: number }[];
}

export const STATUS_LABELS: Record<ConversationStatus, string> = {
  OPEN: 'Avec l’assistant',
  WAITING_AGENT: 'Attend un agent',
  WITH_AGENT: 'Avec un agent',
  CLOSED: 'Close',
};

/** The server's allowed status changes (src/console/service.ts STATUS_TRANSITIONS). */
export const STATUS_TRANSITIONS: Record<ConversationStatus, ConversationStatus[]> = {
  OPEN: ['WAITING_AGENT', 'CLOSED'],
  WAITING_AGENT: ['WITH_AGENT', 'OPEN', 'CLOSED'],
  WITH_AGENT: ['OPEN', 'CLOSED'],
  CLOSED: ['OPEN'],
};

/** `24 novembre 2026 à 19 h 05`, Paris time. */
export function frenchMoment(timestamp: string): string {
  const parts = new Intl.DateTimeFormat('fr-FR', {
    day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Paris',
  }).formatToParts(new Date(timestamp));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = part('day') === '1' ? '1er' : part('day');
  return `${day} ${part('month')} ${part('year')} à ${Number(part('hour'))}\u00a0h\u00a0${part('minute')}`;
}

/** Today and `days - 1` days before, as YYYY-MM-DD in Paris. */
export function lastDays(days: number): { from: string; to: string } {
  const day = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(d);
  const now = new Date();
  return { from: day(new Date(now.getTime() - (days - 1) * 86_400_000)), to: day(now) };
}
