import { Type, type Static } from 'typebox';
import { Envelope } from '../kernel/pagination.ts';
import { Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

export const MediaSchema = Type.Object({
  id: Uuid(),
  filename: Type.String({ examples: ['affiche-collecte.jpg'] }),
  mimeType: Type.String({ examples: ['image/jpeg'] }),
  size: Type.Integer({ minimum: 0, description: 'Bytes' }),
  width: Nullable(Type.Integer({ description: 'Pixels; null for a file that is not an image' })),
  height: Nullable(Type.Integer({ description: 'Pixels; null for a file that is not an image' })),
  alt: Nullable(Type.String()),
  url: Type.String({ description: 'Absolute path of the file', examples: ['/public/cms/media/0b7c…/file'] }),
  thumbnailUrl: Nullable(
    Type.String({ description: 'Absolute path of the thumbnail; null for a file that is not an image' }),
  ),
  createdAt: Timestamp(),
});
export type Media = Static<typeof MediaSchema>;

export const MediaIdParams = Type.Object({ id: Uuid('The media id (a UUID; anything else answers 400)') });

export const MediaFileQuery = Type.Object({
  thumb: Type.Optional(Type.Enum(['0', '1'], { description: '1: the thumbnail (same bytes as /thumbnail)' })),
});

/** OpenAPI description of a binary answer; Fastify sends the bytes as they are. */
export const binaryResponse = (description: string) => ({
  description,
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
});

// The admin API's media (docs/api.md, the admin API): the public shape, the import bundle's field names, plus what the public
// API keeps to itself (`public`, the group, `updatedAt`).

export const AdminMediaSchema = Type.Object({
  ...MediaSchema.properties,
  public: Type.Boolean({ description: 'Served by /public/cms/media only when true' }),
  cityGroupId: Nullable(Uuid('The city group whose CMS agents manage it; null: super admins only (imported without a group)')),
  updatedAt: Timestamp(),
});
export type AdminMedia = Static<typeof AdminMediaSchema>;
export const AdminMediaListSchema = Envelope(AdminMediaSchema);

/** Longest alternative text: a sentence or two for a screen reader, not an article. */
export const MAX_ALT_LENGTH = 1000;

export const PatchMediaBody = Type.Partial(
  Type.Object({
    alt: Nullable(Type.String({ maxLength: MAX_ALT_LENGTH, description: 'Alternative text for screen readers' })),
    public: Type.Boolean(),
    filename: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[^/\\\\\\u0000-\\u001f\\u007f]+$',
      description: 'The name shown and given to downloads (no path, no control character); the type stays the one read from the bytes',
    }),
    cityGroupId: Uuid('Move it to another of the agent’s groups'),
  }),
);
export type MediaPatch = Static<typeof PatchMediaBody>;

/** The form of POST /admin/media, for the OpenAPI document only: the route reads the parts itself, as they stream. */
export const UploadMediaForm = Type.Object({
  file: Type.String({
    format: 'binary',
    description: 'The file (one part with a file name); its type is read from its bytes: PNG, JPEG, GIF, WebP, AVIF, SVG or PDF',
  }),
  alt: Type.Optional(Type.String({ maxLength: MAX_ALT_LENGTH, description: 'Alternative text; empty or absent: null' })),
  public: Type.Optional(Type.String({ enum: ['true', 'false'], description: 'Whether /public/cms/media serves it; false when absent' })),
  cityGroupId: Type.Optional(Uuid('Its group; required unless the agent works for exactly one group')),
});
