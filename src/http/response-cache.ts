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

/**
 * Upper bounds, so that a crawler walking every URL cannot grow the process without limit: under any stream of
 * distinct URLs the cache holds at most MAX_BYTES of bodies and keys (the process must grow less than 200 MiB).
 */
const MAX_ENTRIES = 10_000;
const MAX_BYTES = 128 * 1024 * 1024;
/** What one entry costs besides its bodies and key: the objects, header lines and map slot. */
const ENTRY_OVERHEAD_BYTES = 1024;
/** How long past its expiry an entry may still answer while the database is down (stale-if-error). */
export const STALE_IF_ERROR_MS = 24 * 60 * 60 * 1000;
/**
 * Largest body kept: one entry must never take a large share of MAX_BYTES (a list of every commune of France
 * is near a gigabyte; GET /public/cities streams it above CITIES_STREAM_THRESHOLD). Larger bodies are sent
 * once and recomputed next time.
 */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;

/**
 * Bodies by cache key (see conditional.ts: the route and the parameters it declares), least recently used first out.
 * A stale entry (older data version, expired) is never served as fresh, but is kept until replaced or evicted: while
 * the database is down it is the last good answer (`getStale`).
 */
export class ResponseCache {
  #entries = new Map<string, CachedResponse>();
  #bytes = 0;
  /** The entry last moved to the end of the LRU order: a run of hits on one URL moves nothing. */
  #newest: CachedResponse | undefined;

  get(key: string, version: number, now: number): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now >= entry.expiresAt) return undefined;
    if (entry !== this.#newest) {
      // Refresh its place in the LRU order.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = entry;
    }
    return entry;
  }

  /** The last answer kept for a key, however stale, unless it expired more than STALE_IF_ERROR_MS ago. */
  getStale(key: string, now: number): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    return entry && now < entry.expiresAt + STALE_IF_ERROR_MS ? entry : undefined;
  }

  /** Bytes counted against MAX_BYTES (tests and /metrics). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
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
    this.#bytes += entryBytes(key, entry);
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
    this.#bytes -= entryBytes(key, entry) + (entry.variants.br?.body.length ?? 0) + (entry.variants.gzip?.body.length ?? 0);
  }
}

/** What an entry costs in memory, its compressed variants apart (counted as they are made). */
function entryBytes(key: string, entry: CachedResponse): number {
  return entry.identity.body.length + 2 * key.length + ENTRY_OVERHEAD_BYTES;
}
