import { Type, type Static } from 'typebox';
import { CityGroupRefSchema, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

export { CityGroupRefSchema };

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
