import type { CityKnowledge } from './knowledge.ts';

/**
 * The city data the assistants answer from, kept per city like the public answers are: until public data changes
 * (the data version moves) or KNOWLEDGE_TTL_MS pass. Reading a city is a dozen queries and some 60 KB of rows, which on
 * the embedded database all run on the event loop; a conversation asks about the same city message after message.
 */

/** How long a city's data is kept at most, as the public response cache keeps its answers. */
export const KNOWLEDGE_TTL_MS = 60_000;
/** Cities kept at most; past it the one kept longest is dropped first. */
export const KNOWLEDGE_KEPT = 100;

export type KnowledgeLoader = (cityId: string, now: Date) => Promise<CityKnowledge | null>;

interface Kept {
  version: number;
  until: number;
  knowledge: Promise<CityKnowledge | null>;
}

/** `load` behind the cache; `version` is the current data version. Concurrent reads of one city share one load. */
export function cachedKnowledge(load: KnowledgeLoader, version: () => number): KnowledgeLoader {
  const kept = new Map<string, Kept>();
  return (cityId, now) => {
    const at = now.getTime();
    const entry = kept.get(cityId);
    if (entry && entry.version === version() && at < entry.until) return entry.knowledge;
    kept.delete(cityId);
    const knowledge = load(cityId, now);
    const fresh = { version: version(), until: at + KNOWLEDGE_TTL_MS, knowledge };
    kept.set(cityId, fresh);
    if (kept.size > KNOWLEDGE_KEPT) kept.delete(kept.keys().next().value!);
    // A failed read is not kept.
    knowledge.catch(() => kept.get(cityId) === fresh && kept.delete(cityId));
    return knowledge;
  };
}
