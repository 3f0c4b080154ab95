import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { toMedia } from './mapper.ts';
import { binaryResponse, MediaFileQuery, MediaIdParams, MediaSchema } from './schemas.ts';
import { sendBytes } from './send-bytes.ts';
import { createMediaService } from './service.ts';

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
  const media = createMediaService({ db: app.db, mediaDir: app.config.mediaDir, dataVersion: () => app.dataVersion.current });

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
    async (request) => toMedia(await media.publicMedia(request.params.id)),
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
      const row = await media.publicMedia(request.params.id);
      const bytes = request.query.thumb === '1' ? media.thumbnail(row, request.log) : media.original(row, request.log);
      return sendBytes(request, reply, await bytes);
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
    async (request, reply) => sendBytes(request, reply, await media.thumbnail(await media.publicMedia(request.params.id), request.log)),
  );
}
