import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { MediaMemory } from './memory.ts';
import { findMedia, findPublicMedia, type MediaRow } from './repository.ts';
import { DEFAULT_EXTENSIONS, SHARP_FORMATS, SNIFF_BYTES, sniffMediaType, type AcceptedMediaType } from '../kernel/media-types.ts';
import { loadThumbnail, THUMBNAILS_DIR } from './thumbnails.ts';

/**
 * The media rules between the routes and the storage: which media may be served (rows kept per data version), and
 * where their bytes come from (memory for small files, MEDIA_DIR otherwise, thumbnails made once). No HTTP here:
 * the routes answer a ByteSource with send-bytes.ts.
 */

/** Bytes to answer with, and what their answer says about them. */
export interface ByteSource {
  size: number;
  /** Strong entity tag, quoted. */
  etag: string;
  contentType: string;
  filename: string;
  /** The inclusive byte interval, as a stream or a buffer. Called at most once. */
  read(start: number, end: number): Readable | Buffer;
  /** Releases what `read` would have used, when the answer carries no body. */
  discard(): void;
}

export interface MediaService {
  /** A public media row; an unknown or private one throws mediaNotFound. */
  publicMedia(id: string): Promise<MediaRow>;
  /** A media row, public or not (the admin API checks the agent's reach first); an unknown one throws mediaNotFound. */
  anyMedia(id: string): Promise<MediaRow>;
  /** The stored file of a media; a file gone from MEDIA_DIR throws mediaNotFound (and is logged). */
  original(media: MediaRow, log: FastifyBaseLogger): Promise<ByteSource>;
  /** The thumbnail of an image (made once, kept in MEDIA_DIR/thumbs); a file that is not an image throws noThumbnail. */
  thumbnail(media: MediaRow, log: FastifyBaseLogger): Promise<ByteSource>;
}

const isMissingFile = (err: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

function bufferSource(bytes: Buffer, about: Pick<ByteSource, 'etag' | 'contentType' | 'filename'>): ByteSource {
  return { ...about, size: bytes.length, read: (start, end) => bytes.subarray(start, end + 1), discard: () => {} };
}

/** A thumbnail's file name: the original's stem, `-miniature`, and the extension of the thumbnail's type. */
function thumbnailName(filename: string, contentType: string): string {
  const subtype = contentType.split('/')[1];
  return `${filename.replace(/\.[^.]*$/, '')}-miniature.${subtype === 'jpeg' ? 'jpg' : subtype}`;
}

/**
 * One per app: it keeps rows and small files in memory between requests. Lines are logged with the request's
 * logger, which carries its reqId.
 */
export function createMediaService(options: { db: Kysely<DB>; mediaDir: string; dataVersion: () => number }): MediaService {
  const mediaDir = path.resolve(options.mediaDir);
  const memory = new MediaMemory();

  /** The stored file of a media row, always `mediaDir/<uuid>`: the id is schema-checked, and checked again here. */
  function storedFile(id: string): string {
    const file = path.resolve(mediaDir, id);
    if (path.dirname(file) !== mediaDir) throw errors.mediaNotFound();
    return file;
  }

  /** The open file and its size; a missing file, or a path that is not a file, is logged and answers 404. */
  async function openStored(media: MediaRow, log: FastifyBaseLogger): Promise<{ handle: fs.FileHandle; size: number }> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(storedFile(media.id), 'r');
    } catch (err) {
      if (!isMissingFile(err)) throw err;
      log.warn({ mediaId: media.id }, 'media file missing from MEDIA_DIR');
      throw errors.mediaNotFound();
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      return { handle, size: stat.size };
    } catch (err) {
      await handle.close();
      if (!isMissingFile(err)) throw err;
      log.warn({ mediaId: media.id }, 'media path in MEDIA_DIR is not a file');
      throw errors.mediaNotFound();
    }
  }

  return {
    async publicMedia(id) {
      const version = options.dataVersion();
      let media = memory.row(version, id);
      if (media === undefined) {
        media = (await findPublicMedia(options.db, id)) ?? null;
        memory.rememberRow(version, id, media);
      }
      if (!media) throw errors.mediaNotFound();
      return media;
    },

    async anyMedia(id) {
      const media = await findMedia(options.db, id);
      if (!media) throw errors.mediaNotFound();
      return media;
    },

    async original(media, log) {
      const about = { etag: `"${media.sha256}"`, contentType: media.mime_type, filename: media.filename };
      const kept = memory.bytes(media);
      if (kept) return bufferSource(kept, about);
      const { handle, size } = await openStored(media, log);
      if (memory.fits(size)) {
        const bytes = await handle.readFile().finally(() => handle.close());
        memory.rememberBytes(media, bytes);
        return bufferSource(bytes, about);
      }
      return {
        ...about,
        size,
        read: (start, end) => handle.createReadStream({ start, end }),
        discard: () => void handle.close(),
      };
    },

    async thumbnail(media, log) {
      let thumbnail;
      try {
        thumbnail = await loadThumbnail(mediaDir, { id: media.id, mimeType: media.mime_type, sha256: media.sha256 });
      } catch (err) {
        if (isMissingFile(err)) log.warn({ mediaId: media.id }, 'media file missing from MEDIA_DIR');
        else log.error({ err, mediaId: media.id }, 'thumbnail could not be made');
        throw errors.mediaNotFound();
      }
      if (!thumbnail) throw errors.noThumbnail();
      const { bytes, contentType } = thumbnail;
      return bufferSource(bytes, {
        etag: `"${createHash('sha256').update(bytes).digest('hex')}"`,
        contentType,
        filename: thumbnailName(media.filename, contentType),
      });
    },
  };
}

// Uploads (POST /admin/media): the bytes are written under a temporary name while they stream in, checked, and moved
// to `MEDIA_DIR/<id>` only once the row that names them has committed; any failure before leaves nothing behind.

/** What an uploaded file turned out to be, read from its bytes alone. */
export interface UploadFacts {
  /** The id its row will have: the stored file is `MEDIA_DIR/<id>`. */
  id: string;
  filename: string;
  mimeType: AcceptedMediaType;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

/** An upload written under a temporary name, waiting for its row. */
export interface StagedUpload {
  facts: UploadFacts;
  /** Moves the file into place (once its row has committed). */
  commit(): Promise<void>;
  /** Removes the temporary file (the row was not written). Safe to call more than once, and after commit. */
  discard(): Promise<void>;
}

/** Longest stored file name: file systems of the agents who download it cut there. */
const MAX_FILENAME_LENGTH = 255;

/** The sender's file name without path or control characters, or `fichier.<ext>` when nothing is left. */
export function uploadFilename(given: string | undefined, mimeType: AcceptedMediaType): string {
  const base = (given ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base === '' ? `fichier.${DEFAULT_EXTENSIONS[mimeType]}` : [...base].slice(0, MAX_FILENAME_LENGTH).join('');
}

/**
 * Counts, hashes and keeps the head of the bytes passing through; fails with mediaTooLarge as soon as they exceed
 * `maxBytes`, so that a file too big is never read to its end.
 */
function meter(maxBytes: number) {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(errors.mediaTooLarge(maxBytes));
      hash.update(chunk);
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(head) }) };
}

/** Width and height of an image as sharp reads it; mediaUnreadable when sharp cannot, or reads another format. */
async function imageSize(file: string, mimeType: AcceptedMediaType): Promise<{ width: number | null; height: number | null }> {
  const format = SHARP_FORMATS[mimeType];
  if (!format) return { width: null, height: null };
  const { default: sharp } = await import('sharp');
  let meta;
  try {
    // As bytes, like the thumbnails: an SVG read from a path could reach the files beside it.
    meta = await sharp(await fs.readFile(file)).metadata();
  } catch {
    throw errors.mediaUnreadable();
  }
  if (meta.format !== format || (mimeType === 'image/avif' && meta.compression !== 'av1')) throw errors.mediaUnreadable();
  return { width: meta.width ?? null, height: meta.height ?? null };
}

/**
 * Writes an uploaded file to `mediaDir` under a temporary name while it streams in, at most `maxBytes` of it (413
 * beyond, counted as it arrives), and reads what it is from its bytes: its type (415 for any type not accepted), its
 * size, hash and, for an image, its dimensions. The file's own name is kept for display only. On any failure,
 * the stream's included (a sender that goes away mid-file), the temporary file is removed before the error goes on.
 */
export async function stageUpload(
  mediaDir: string,
  source: Readable,
  options: { filename: string | undefined; maxBytes: number },
): Promise<StagedUpload> {
  const dir = path.resolve(mediaDir);
  const id = randomUUID();
  const temp = path.join(dir, `.${id}.${randomBytes(6).toString('hex')}.part`);
  const final = path.join(dir, id);
  const discard = () => fs.rm(temp, { force: true });
  try {
    await fs.mkdir(dir, { recursive: true });
    const metered = meter(options.maxBytes);
    await pipeline(source, metered.stream, createWriteStream(temp, { flags: 'wx' }));
    const { size, sha256, head } = metered.result();
    if (size === 0) throw errors.mediaEmpty();
    const mimeType = sniffMediaType(head);
    if (!mimeType) throw errors.mediaType();
    const { width, height } = await imageSize(temp, mimeType);
    const facts = { id, filename: uploadFilename(options.filename, mimeType), mimeType, size, sha256, width, height };
    return { facts, commit: () => fs.rename(temp, final), discard };
  } catch (err) {
    // The source may still be flowing (a check failed after its end, or the pipeline failed on our side).
    source.destroy();
    await discard();
    throw err;
  }
}

/** Removes a deleted media's file and its thumbnails; a file already gone is not an error. */
export async function removeMediaFiles(mediaDir: string, id: string): Promise<void> {
  const dir = path.resolve(mediaDir);
  await fs.rm(path.join(dir, id), { force: true });
  const thumbs = path.join(dir, THUMBNAILS_DIR);
  let names: string[];
  try {
    names = await fs.readdir(thumbs);
  } catch (err) {
    if (isMissingFile(err)) return;
    throw err;
  }
  await Promise.all(names.filter((name) => name.startsWith(`${id}-`)).map((name) => fs.rm(path.join(thumbs, name), { force: true })));
}
