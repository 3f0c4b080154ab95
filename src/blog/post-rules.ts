import type { RecordFault } from '../domain/rules/faults.ts';
import { mdxContentFaults } from '../domain/rules/mdx.ts';

/**
 * The rule of a blog post once its shape is right (see src/domain/rules/cities.ts), for the admin API and the import
 * bundle alike: its content compiles as the clients will compile it.
 */
export function blogPostFaults(post: { content: string }): Promise<RecordFault[]> {
  return mdxContentFaults(post.content);
}
