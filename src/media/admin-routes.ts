import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { adminRoute, answerVersioned, guardErrors, registerAdminResource } from '../admin/resource.ts';
import { adminAgentOf } from '../admin/agent.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { createAdminMediaService } from './admin-media.ts';
import { AdminMediaListSchema, AdminMediaSchema, binaryResponse, MediaFileQuery, MediaIdParams, PatchMediaBody, UploadMediaForm } from './schemas.ts';
import { createMediaService } from './service.ts';
import { sendBytes } from './send-bytes.ts';
import { readUploadForm } from './upload-form.ts';

const GROUPS = 'A media of a city group outside the agent’s groups answers 404, like an unknown one; one of no group (imported without `cityGroupId`) is a super admin’s.';
const PUBLISHED = 'Recorded in the audit log (entity `media`); the public media routes answer the change within a second.';

/** `POST /admin/media` (multipart) and `/admin/media/:id` (docs/api.md, the admin API), for agents holding CMS. */
export default async function mediaAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CMS');
  // Multipart bodies are parsed here only: everywhere else a body is JSON of at most 100 KiB. The upload route reads
  // the parts itself, as they stream in, with its own limits (upload-form.ts).
  await app.register(multipart);
  const { mediaDir, mediaMaxBytes } = app.config;
  const service = createAdminMediaService(mediaDir);
  const files = createMediaService({ db: app.db, mediaDir, dataVersion: () => app.dataVersion.current });

  app.post('/media', {
    schema: {
      ...adminRoute,
      summary: 'Upload a media file (multipart/form-data: file, alt, public, cityGroupId)',
      description:
        `One file in the part \`file\`, at most MEDIA_MAX_BYTES (${mediaMaxBytes} bytes here), counted while it streams in: 413 beyond, ` +
        'with nothing stored. Its type is read from its bytes, never from its name or declared type: PNG, JPEG, GIF, WebP, AVIF, SVG or ' +
        'PDF, anything else 415 (a PNG named `.svg` is stored as image/png, an SVG named `.png` as image/svg+xml). An SVG is always ' +
        'served as an attachment under `Content-Security-Policy: sandbox`, never as a page. `alt` (empty: null), `public` (`true` or ' +
        '`false`, default false) and `cityGroupId` (required unless the agent works for exactly one group; a group outside the agent’s ' +
        `answers 404). No \`file\` part, two files, or a fault of the form: 400 in French. ${PUBLISHED}`,
      consumes: ['multipart/form-data'],
      body: UploadMediaForm,
      response: { 201: AdminMediaSchema, ...guardErrors, 404: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema },
    },
    // The body schema documents the form; the parts are checked by readUploadForm while they stream, not by Ajv
    // (the parser leaves request.body empty).
    validatorCompiler: () => () => true,
  }, async (request, reply) => {
    const upload = await readUploadForm(request, { mediaDir, maxBytes: mediaMaxBytes });
    const created = await service.upload(app.db, adminAgentOf(request), upload, app.clock());
    return answerVersioned(app, reply.code(201), created);
  });

  // The media library shows private files too (the public routes answer 404 for them): the console fetches them with
  // its token and shows them from a blob.
  app.get('/media/:id/file', {
    config: { cache: false },
    schema: {
      ...adminRoute,
      summary: 'The bytes of a media file, public or private (its thumbnail with thumb=1)',
      description:
        'The same answers as `GET /public/cms/media/:id/file` (Range, If-None-Match, an SVG as an attachment), for the media ' +
        `of the agent's groups, private ones included, with \`Cache-Control: private, no-cache\`. ${GROUPS} Not an image with thumb=1: 404.`,
      params: MediaIdParams,
      querystring: MediaFileQuery,
      response: {
        200: binaryResponse('The bytes, with Content-Type, Content-Length, a strong ETag and Accept-Ranges'),
        206: binaryResponse('The requested byte range'),
        304: { description: 'Not modified (If-None-Match)', type: 'null' },
        ...guardErrors,
        404: ErrorSchema,
        416: ErrorSchema,
      },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const thumb = (request.query as { thumb?: string }).thumb === '1';
    // The agent's reach first: a media of another group answers 404 like an unknown one.
    await service.get(app.db, adminAgentOf(request), id);
    const row = await files.anyMedia(id);
    const bytes = thumb ? files.thumbnail(row, request.log) : files.original(row, request.log);
    return sendBytes(request, reply, await bytes, 'private, no-cache');
  });

  registerAdminResource(app, {
    path: '/media',
    schemas: { idParams: MediaIdParams, list: AdminMediaListSchema, item: AdminMediaSchema, patch: PatchMediaBody },
    docs: {
      list: {
        summary: 'The media of the agent’s groups, by file name',
        description: 'The listing envelope; a super admin sees every media. Private ones included, with `public: false`.',
      },
      get: { summary: 'One media, with its ETag', description: GROUPS },
      update: {
        summary: 'Change a media’s alt text, visibility, file name or group (partial; the bytes are not changed here)',
        description:
          'With `If-Match`, 412 when the media changed since it was read. `filename` changes the name given to downloads, never the ' +
          `type read from the bytes. \`cityGroupId\` moves it to another of the agent’s groups (404 for one outside). ${GROUPS} ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete a media, its file and its thumbnails',
        description:
          'With `If-Match`, 412 when the media changed since it was read. The file leaves MEDIA_DIR once the deletion has committed; pages ' +
          `that still link to it then get 404 for it. ${GROUPS} ${PUBLISHED}`,
      },
    },
    service,
  });
}
