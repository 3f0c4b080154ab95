/**
 * What an area derives from one city's data (the assistant's knowledge, the sorting guide's entries, the lookup's
 * street index), kept per city like the public answers are: until public data changes (the data version moves) or
 * `ttlMs` pass. Concurrent reads of one city share one load; a failed load is not kept; past `kept` cities the one
 * kept longest goes first.
 */

export interface CityCacheOptions {
  /** The current data version (app.dataVersion.current). */
  version: () => number;
  /** Milliseconds since the epoch, from the app's clock. */
  now: () => number;
  /** How long one city's value is kept at most (the response cache's 60 s by default). */
  ttlMs?: number;
  /** How many cities are kept at most. */
  kept?: number;
}

export function cachedPerCity<T>(load: (cityId: string) => Promise<T>, options: CityCacheOptions): (cityId: string) => Promise<T> {
  const { version, now, ttlMs = 60_000, kept: most = 100 } = options;
  const kept = new Map<string, { version: number; until: number; value: Promise<T> }>();
  return (cityId) => {
    const at = now();
    const entry = kept.get(cityId);
    if (entry && entry.version === version() && at < entry.until) return entry.value;
    kept.delete(cityId);
    const fresh = { version: version(), until: at + ttlMs, value: load(cityId) };
    kept.set(cityId, fresh);
    if (kept.size > most) kept.delete(kept.keys().next().value!);
    fresh.value.catch(() => kept.get(cityId) === fresh && kept.delete(cityId));
    return fresh.value;
  };
}
