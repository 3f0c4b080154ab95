import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { findPublicMedia, toMedia, type MediaRow } from './repository.ts';
import { binaryResponse, MediaFileQuery, MediaIdParams, MediaSchema } from './schemas.ts';
import { sendBytes } from './send-bytes.ts';
import { loadThumbnail } from './thumbnails.ts';
import { MediaMemory } from './memory.ts';

const isMissingFile = (err: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

const fileResponses = {
  200: binaryResponse('The bytes, with Content-Type, Content-Length, a strong ETag, Cache-Control and Accept-Ranges'),
  206: binaryResponse('The requested byte range (one range; several ranges are answered with 200 and the whole body)'),
  304: { description: 'Not modified (If-None-Match)', type: 'null' },
  400: ErrorSchema,
  404: ErrorSchema,
  416: ErrorSchema,
};

export default async function mediaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const mediaDir = path.resolve(app.config.mediaDir);

  const memory = new MediaMemory();

  async function mediaOr404(id: string): Promise<MediaRow> {
    const version = app.dataVersion.current;
    let media = memory.row(version, id);
    if (media === undefined) {
      media = (await findPublicMedia(app.db, id)) ?? null;
      memory.rememberRow(version, id, media);
    }
    if (!media) throw errors.mediaNotFound();
    return media;
  }

  function sendKept(request: FastifyRequest, reply: FastifyReply, media: MediaRow, bytes: Buffer) {
    return sendBytes(request, reply, {
      size: bytes.length,
      etag: `"${media.sha256}"`,
      contentType: media.mime_type,
      filename: media.filename,
      read: (start, end) => bytes.subarray(start, end + 1),
      discard: () => {},
    });
  }

  /** The stored file of a media row, always `mediaDir/<uuid>`: the id is schema-checked, and checked again here. */
  function storedFile(id: string): string {
    const file = path.resolve(mediaDir, id);
    if (path.dirname(file) !== mediaDir) throw errors.mediaNotFound();
    return file;
  }

  async function sendOriginal(request: FastifyRequest, reply: FastifyReply, media: MediaRow) {
    const kept = memory.bytes(media);
    if (kept) return sendKept(request, reply, media, kept);
    let handle: fs.FileHandle;
    let size: number;
    try {
      handle = await fs.open(storedFile(media.id), 'r');
    } catch (err) {
      if (!isMissingFile(err)) throw err;
      request.log.warn({ mediaId: media.id, reqId: request.id }, 'media file missing from MEDIA_DIR');
      throw errors.mediaNotFound();
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      size = stat.size;
    } catch (err) {
      await handle.close();
      if (!isMissingFile(err)) throw err;
      request.log.warn({ mediaId: media.id, reqId: request.id }, 'media path in MEDIA_DIR is not a file');
      throw errors.mediaNotFound();
    }
    if (memory.fits(size)) {
      const bytes = await handle.readFile().finally(() => handle.close());
      memory.rememberBytes(media, bytes);
      return sendKept(request, reply, media, bytes);
    }
    return sendBytes(request, reply, {
      size,
      etag: `"${media.sha256}"`,
      contentType: media.mime_type,
      filename: media.filename,
      read: (start, end) => handle.createReadStream({ start, end }),
      discard: () => void handle.close(),
    });
  }

  async function sendThumbnail(request: FastifyRequest, reply: FastifyReply, media: MediaRow) {
    let thumbnail;
    try {
      thumbnail = await loadThumbnail(mediaDir, { id: media.id, mimeType: media.mime_type, sha256: media.sha256 });
    } catch (err) {
      if (isMissingFile(err)) {
        request.log.warn({ mediaId: media.id, reqId: request.id }, 'media file missing from MEDIA_DIR');
      } else {
        request.log.error({ err, mediaId: media.id, reqId: request.id }, 'thumbnail could not be made');
      }
      throw errors.mediaNotFound();
    }
    if (!thumbnail) throw errors.noThumbnail();
    const { bytes, contentType } = thumbnail;
    const stem = media.filename.replace(/\.[^.]*$/, '');
    return sendBytes(request, reply, {
      size: bytes.length,
      etag: `"${createHash('sha256').update(bytes).digest('hex')}"`,
      contentType,
      filename: `${stem}-miniature.${contentType.split('/')[1] === 'jpeg' ? 'jpg' : contentType.split('/')[1]}`,
      read: (start, end) => bytes.subarray(start, end + 1),
      discard: () => {},
    });
  }

  app.get(
    '/cms/media/:id',
    {
      schema: {
        tags: ['media'],
        summary: 'Metadata of a public media file',
        description: 'Unknown and private media answer the same 404.',
        params: MediaIdParams,
        response: { 200: MediaSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => toMedia(await mediaOr404(request.params.id)),
  );

  app.get(
    '/cms/media/:id/file',
    {
      // File answers carry their own validators and ranges; the JSON response cache is not for them.
      config: { cache: false },
      schema: {
        tags: ['media'],
        summary: 'The bytes of a public media file (its thumbnail with thumb=1)',
        description:
          'Honours Range (one range: 206 with Content-Range; several ranges: 200 with the whole body; past the end: 416 ' +
          'with `Content-Range: bytes */size`), If-Range and If-None-Match (304). `thumb=1` gives exactly the bytes of ' +
          '/thumbnail. Unknown, private or lost media: 404.',
        params: MediaIdParams,
        querystring: MediaFileQuery,
        response: fileResponses,
      },
    },
    async (request, reply) => {
      const media = await mediaOr404(request.params.id);
      return request.query.thumb === '1' ? sendThumbnail(request, reply, media) : sendOriginal(request, reply, media);
    },
  );

  app.get(
    '/cms/media/:id/thumbnail',
    {
      config: { cache: false },
      schema: {
        tags: ['media'],
        summary: 'A downscaled copy of a public image (longest side at most 320 px, aspect ratio kept)',
        description: 'Made once and kept in MEDIA_DIR/thumbs. A file that is not an image has none: 404.',
        params: MediaIdParams,
        response: fileResponses,
      },
    },
    async (request, reply) => sendThumbnail(request, reply, await mediaOr404(request.params.id)),
  );
}
