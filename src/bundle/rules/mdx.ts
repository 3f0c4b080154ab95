import { compile } from '@mdx-js/mdx';
import { bundleMessages } from '../../kernel/validation-messages.ts';
import type { BundleFault } from '../faults.ts';

/**
 * MDX content (a blog post's, a page's) compiles as the clients will compile it; otherwise a fault at `content`
 * with the line and column the compiler names. `:::tip` lines are plain text to MDX.
 */
export async function mdxContentFaults(content: string): Promise<BundleFault[]> {
  try {
    await compile(content);
    return [];
  } catch (err) {
    const e = err as { reason?: string; message?: string; line?: number; column?: number };
    return [{ path: 'content', message: bundleMessages.mdxDoesNotCompile(e.reason ?? e.message ?? String(err), e.line, e.column) }];
  }
}
