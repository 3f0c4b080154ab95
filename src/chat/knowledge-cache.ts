import type { CityKnowledge } from './knowledge.ts';
import { cachedPerCity } from '../domain/city-cache.ts';

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

/** `load` behind the kernel's per-city cache; `version` is the current data version; `now` comes with each read. */
export function cachedKnowledge(load: KnowledgeLoader, version: () => number): KnowledgeLoader {
  // The read's own instant, set just before the cache calls `now` and `load` (synchronously, within the call).
  let asOf = new Date(0);
  const cached = cachedPerCity((cityId) => load(cityId, asOf), {
    version,
    now: () => asOf.getTime(),
    ttlMs: KNOWLEDGE_TTL_MS,
    kept: KNOWLEDGE_KEPT,
  });
  return (cityId, now) => {
    asOf = now;
    return cached(cityId);
  };
}
