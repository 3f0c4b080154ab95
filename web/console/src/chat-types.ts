// Shapes of /chat (docs/console.md) and of the history screens' /admin routes as the console reads them, named from
// the types generated from GET /openapi.json (web/shared/api-types.gen.ts); and how the console shows them.
import type { GetJson } from '../../shared/types.ts';

export type ConversationDetail = GetJson<'/chat/conversations/{id}'>;
export type InboxConversation = GetJson<'/chat/inbox'>['data'][number];
export type ConversationStatus = InboxConversation['status'];
export type ChatMessage = ConversationDetail['messages'][number];
export type Ticket = ConversationDetail['tickets'][number];
export type CannedReply = GetJson<'/admin/canned-replies/{id}'>;
export type UsageRow = GetJson<'/chat/usage'>[number];
export type AuditEntry = GetJson<'/admin/audit'>['data'][number];
export type Analytics = GetJson<'/admin/analytics'>;
export type AnalyticsDay = Analytics['days'][number];

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
