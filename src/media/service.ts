import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { MediaMemory } from './memory.ts';
import { findPublicMedia, type MediaRow } from './repository.ts';
import { loadThumbnail } from './thumbnails.ts';

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
