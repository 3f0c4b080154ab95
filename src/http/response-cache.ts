export type CachedEncoding = 'identity' | 'br' | 'gzip';

/** One coding of a cached body, with its validator and the header lines of its answers, all built once. */
export interface CachedRepresentation {
  body: Buffer;
  etag: string;
  /** The header lines (name, value, name, value…) of its 200 answer and of its 304. */
  ok: string[];
  notModified: string[];
}

/** A response kept in memory: its representations made so far (identity first) and what they share. */
export interface CachedResponse {
  key: string;
  /** data_version the body was computed at. */
  version: number;
  /** Clock time (ms) after which the body must be computed again. */
  expiresAt: number;
  compressible: boolean;
  /** The header lines every answer from this entry carries (security, CORS, type, Cache-Control, Vary…). */
  headers: string[];
  identity: CachedRepresentation;
  variants: Partial<Record<Exclude<CachedEncoding, 'identity'>, CachedRepresentation>>;
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
  /** The entry last moved to the end of the LRU order: a run of hits on one URL moves nothing. */
  #newest: CachedResponse | undefined;

  get(key: string, version: number, now: number): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now >= entry.expiresAt) {
      this.#delete(key, entry);
      return undefined;
    }
    if (entry !== this.#newest) {
      // Refresh its place in the LRU order.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = entry;
    }
    return entry;
  }

  /** The entry's body in a coding, made once by `make` and kept (and counted) with the entry. */
  variant(entry: CachedResponse, encoding: 'br' | 'gzip', make: () => CachedRepresentation): CachedRepresentation {
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
    if (entry.identity.body.length > MAX_ENTRY_BYTES) return entry;
    this.#entries.set(key, entry);
    this.#newest = entry;
    this.#bytes += entry.identity.body.length;
    for (const [oldestKey, oldest] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES && this.#bytes <= MAX_BYTES) break;
      if (oldestKey === key) break;
      this.#delete(oldestKey, oldest);
    }
    return entry;
  }

  #delete(key: string, entry: CachedResponse) {
    this.#entries.delete(key);
    if (this.#newest === entry) this.#newest = undefined;
    this.#bytes -= entry.identity.body.length + (entry.variants.br?.body.length ?? 0) + (entry.variants.gzip?.body.length ?? 0);
  }
}
