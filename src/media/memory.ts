import type { MediaRow } from './repository.ts';

/** Files up to this size are kept in memory once read: the demo's images and PDFs, most sites' logos and banners. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Total memory for kept files; the least recently used go first. */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/**
 * Keeps what a media answer needs between requests: the public rows for the current data version, and the
 * bytes of small files by id and sha256 (a file's bytes never change under the same sha256: the import writes a
 * new file and a new hash). A repeated download then costs no query and no file-system call.
 */
export class MediaMemory {
  #version = -1;
  #rows = new Map<string, MediaRow | null>();
  #bytes = new Map<string, Buffer>();
  #total = 0;

  row(version: number, id: string): MediaRow | null | undefined {
    if (version !== this.#version) {
      this.#version = version;
      this.#rows.clear();
    }
    return this.#rows.get(id);
  }

  rememberRow(version: number, id: string, row: MediaRow | null): void {
    if (version === this.#version && this.#rows.size < 10_000) this.#rows.set(id, row);
  }

  bytes(row: MediaRow): Buffer | undefined {
    const key = `${row.id}:${row.sha256}`;
    const found = this.#bytes.get(key);
    if (found) {
      this.#bytes.delete(key);
      this.#bytes.set(key, found);
    }
    return found;
  }

  fits(size: number): boolean {
    return size <= MAX_FILE_BYTES;
  }

  rememberBytes(row: MediaRow, bytes: Buffer): void {
    if (!this.fits(bytes.length)) return;
    const key = `${row.id}:${row.sha256}`;
    if (this.#bytes.has(key)) return;
    this.#bytes.set(key, bytes);
    this.#total += bytes.length;
    for (const [oldKey, old] of this.#bytes) {
      if (this.#total <= MAX_TOTAL_BYTES) break;
      this.#bytes.delete(oldKey);
      this.#total -= old.length;
    }
  }
}
