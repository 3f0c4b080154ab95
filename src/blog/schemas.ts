import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../http/schema-helpers.ts';

/** The city group a post or a site belongs to, as a short reference. */
export const CityGroupRefSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: Type.String({ examples: ['METROPOLE'] }),
});

export const BlogPostSchema = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    content: Type.String({ description: 'MDX (Markdown plus JSX), returned exactly as stored' }),
    published: Type.Boolean(),
    publishedAt: Nullable(Timestamp()),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    cityGroup: CityGroupRefSchema,
  },
  { description: 'A news article of a city group' },
);
export type BlogPost = Static<typeof BlogPostSchema>;

export const BlogPostListQuery = Type.Object({
  cityGroupId: Type.Optional(Uuid('Only the posts of this city group')),
});

export const BlogPostIdParams = Type.Object({ id: Uuid() });
