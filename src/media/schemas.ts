import { Type, type Static } from 'typebox';
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
