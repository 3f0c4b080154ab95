import type { CityKnowledge } from './knowledge/model.ts';

/**
 * The service's contact block (the city group's, migration 0011, and the contact address of its sites): how a citizen
 * reaches a person besides the chat.
 */

export type { KnowledgeContact } from './knowledge/model.ts';

/** The contact block in French, or null when the group publishes none. */
export function contactBlock(k: CityKnowledge): string | null {
  const c = k.contact;
  const lines = [
    c.phone && `- Téléphone\u00a0: ${c.phone}${c.hours ? ` (${c.hours})` : ''}`,
    c.email && `- Courriel\u00a0: ${c.email}`,
    ...c.siteEmails.filter((s) => s.email !== c.email).map((s) => `- Courriel (${s.site})\u00a0: ${s.email}`),
    c.address && `- Adresse\u00a0: ${c.address}`,
    !c.phone && c.hours ? `- Horaires\u00a0: ${c.hours}` : null,
  ].filter((l): l is string => Boolean(l));
  return lines.length ? lines.join('\n') : null;
}
