import type { BundleFault } from '../faults.ts';
import type { BundleBlogPost } from '../schema.ts';
import { mdxContentFaults } from './mdx.ts';

/** The rule of a blog post once its shape is right (see cities.ts): its content compiles as the clients will compile it. */
export function blogPostFaults(post: Pick<BundleBlogPost, 'content'>): Promise<BundleFault[]> {
  return mdxContentFaults(post.content);
}
