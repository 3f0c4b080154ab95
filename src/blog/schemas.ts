import { Type, type Static } from 'typebox';
import { adminSchemas, CityGroupRefSchema, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

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

// The admin API's posts (docs/api.md, the admin API): the public shape, drafts included, plus the group by the bundle's name.

export const blogPostSchemas = adminSchemas(
  Type.Object(
    { ...BlogPostSchema.properties, cityGroupId: Uuid('The city group it belongs to') },
    { description: 'A post as agents see it: drafts (`published` false) and scheduled posts (`publishedAt` after now) too' },
  ),
  {
    title: NonBlank(300),
    content: Type.String({ description: 'MDX; must compile (400 with the line and column otherwise)' }),
    published: Type.Optional(
      Type.Boolean({ description: 'false (the default): a draft. true: public from `publishedAt` (now when it is null)' }),
    ),
    publishedAt: Type.Optional(
      Nullable(Timestamp('When the post becomes public; a later date schedules it. Set to now when a post is published without one')),
    ),
  },
  { patchOnly: { cityGroupId: Uuid('Moves the post to another of the agent’s groups') } },
);
export type AdminBlogPost = Static<typeof blogPostSchemas.item>;
export type CreateBlogPostInput = Static<typeof blogPostSchemas.create>;
export type BlogPostPatch = Static<typeof blogPostSchemas.patch>;
