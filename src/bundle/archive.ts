import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ExportedBundle } from './export.ts';

/**
 * The export's archive: `bundle.json` and the media files it names, in a gzipped tar (POSIX ustar), which every
 * operator's machine opens (`tar xzf`) and `collecte import` then reads as it is. Written as a stream, one file after
 * the other, so that a group's media never sit in memory together.
 */

const BLOCK = 512;

export interface ArchiveEntry {
  /** A relative path under 100 bytes (the ustar name field). */
  name: string;
  size: number;
  mtime: Date;
  /** The bytes, read when the entry's turn comes. */
  open(): Readable | Buffer;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** A ustar header block for a regular file. */
export function tarHeader(entry: Pick<ArchiveEntry, 'name' | 'size' | 'mtime'>): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length > 100) throw new Error(`archive entry name too long: ${entry.name}`);
  const header = Buffer.alloc(BLOCK);
  name.copy(header, 0);
  header.write(octal(0o644, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(entry.size, 12), 124, 'ascii');
  header.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii'); // the checksum counts its own field as spaces
  header.write('0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

async function* tarBlocks(entries: ArchiveEntry[]): AsyncGenerator<Buffer> {
  for (const entry of entries) {
    yield tarHeader(entry);
    const body = entry.open();
    let written = 0;
    try {
      for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
        const bytes = chunk as Buffer;
        // A file that grew since it was measured must not shift the archive: its header said `size`.
        const kept = bytes.subarray(0, Math.max(0, entry.size - written));
        written += kept.length;
        if (kept.length > 0) yield kept;
      }
    } catch {
      // A file deleted (or unreadable) since it was measured: its header is out, so its size is kept, as zeros.
    }
    // A file that shrank or went away is padded with zeros to the size its header announced.
    if (written < entry.size) yield Buffer.alloc(entry.size - written);
    yield padding(entry.size);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** The gzipped tar of `entries`, as a stream. */
export function tarGz(entries: ArchiveEntry[]): Readable {
  const gzip = createGzip();
  // `pipe` does not carry errors: one from the source would be thrown with nobody to hear it (an uncaught
  // exception), so it ends the archive instead.
  return Readable.from(tarBlocks(entries))
    .on('error', () => gzip.destroy())
    .pipe(gzip);
}

/**
 * The archive of an export: `bundle.json`, then each media file from `mediaDir/<id>` (where the import and the uploads
 * store them). A media whose file is gone from the disk is left out of the bundle, not announced and then missing;
 * answers the ids left out, for the log.
 */
export async function exportArchive(exported: ExportedBundle, mediaDir: string, now: Date): Promise<{ archive: Readable; missing: string[] }> {
  const files: ArchiveEntry[] = [];
  const missing: string[] = [];
  for (const { row, path: name } of exported.media) {
    const file = path.join(path.resolve(mediaDir), row.id);
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
      files.push({ name, size: stat.size, mtime: row.updated_at, open: () => createReadStream(file) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.push(row.id);
    }
  }
  const gone = new Set(missing);
  const bundle = { ...exported.bundle, media: (exported.bundle.media ?? []).filter((m) => !gone.has(m.id)) };
  const json = Buffer.from(`${JSON.stringify(bundle, null, 2)}\n`, 'utf8');
  const entries = [{ name: 'bundle.json', size: json.length, mtime: now, open: () => json }, ...files];
  return { archive: tarGz(entries), missing };
}
