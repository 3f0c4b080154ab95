import { compile } from '@mdx-js/mdx';
import { bundleMessages } from '../../kernel/validation-messages.ts';
import type { BundleFault } from '../faults.ts';
import type { BundleBlogPost } from '../schema.ts';

/** The rule of a blog post once its shape is right (see cities.ts): its content compiles as the clients will compile it. */
export async function blogPostFaults(post: Pick<BundleBlogPost, 'content'>): Promise<BundleFault[]> {
  try {
    // `:::tip` lines are plain text to MDX.
    await compile(post.content);
    return [];
  } catch (err) {
    const e = err as { reason?: string; message?: string; line?: number; column?: number };
    return [{ path: 'content', message: bundleMessages.mdxDoesNotCompile(e.reason ?? e.message ?? String(err), e.line, e.column) }];
  }
}
