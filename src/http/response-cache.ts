/** A response body kept in memory with its validator and the compressed variants made so far. */
export interface CachedResponse {
  key: string;
  /** data_version the body was computed at. */
  version: number;
  /** Clock time (ms) after which the body must be computed again. */
  expiresAt: number;
  body: Buffer;
  etag: string;
  compressible: boolean;
  /** The headers every answer from this entry carries, built once. */
  headers: Record<string, string>;
  variants: Partial<Record<'br' | 'gzip', { body: Buffer; etag: string }>>;
}

/** Upper bounds, so that a crawler walking every URL cannot grow the process without limit. */
const MAX_ENTRIES = 10_000;
const MAX_BYTES = 256 * 1024 * 1024;
/**
 * Largest body kept: one entry must never take a large share of MAX_BYTES (a list of every commune of France
 * is near a gigabyte; GET /public/cities streams it above CITIES_STREAM_THRESHOLD). Larger bodies are sent
 * once and recomputed next time.
 */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;

/** Bodies by URL, least recently used first out; stale entries (old version, expired) are never served. */
export class ResponseCache {
  #entries = new Map<string, CachedResponse>();
  #bytes = 0;

  get(key: string, version: number, now: number): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now >= entry.expiresAt) {
      this.#delete(key, entry);
      return undefined;
    }
    // Refresh its place in the LRU order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** The entry's body in a coding, made once by `make` and kept (and counted) with the entry. */
  variant(entry: CachedResponse, encoding: 'br' | 'gzip', make: () => { body: Buffer; etag: string }) {
    let variant = entry.variants[encoding];
    if (!variant) {
      variant = make();
      entry.variants[encoding] = variant;
      if (this.#entries.get(entry.key) === entry) this.#bytes += variant.body.length;
    }
    return variant;
  }

  /** Keeps the entry (unless its body exceeds MAX_ENTRY_BYTES) and answers it, kept or not. */
  set(key: string, entry: CachedResponse): CachedResponse {
    const old = this.#entries.get(key);
    if (old) this.#delete(key, old);
    if (entry.body.length > MAX_ENTRY_BYTES) return entry;
    this.#entries.set(key, entry);
    this.#bytes += entry.body.length;
    for (const [oldestKey, oldest] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES && this.#bytes <= MAX_BYTES) break;
      if (oldestKey === key) break;
      this.#delete(oldestKey, oldest);
    }
    return entry;
  }

  #delete(key: string, entry: CachedResponse) {
    this.#entries.delete(key);
    this.#bytes -= entry.body.length + (entry.variants.br?.body.length ?? 0) + (entry.variants.gzip?.body.length ?? 0);
  }
}
