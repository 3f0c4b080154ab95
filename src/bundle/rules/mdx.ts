import { compile } from '@mdx-js/mdx';
import { bundleMessages } from '../../kernel/validation-messages.ts';
import type { BundleFault } from '../faults.ts';

/** Why MDX does not compile, in the compiler's words, and where when it says. */
export interface MdxFault {
  reason: string;
  line: number | null;
  column: number | null;
  /** The French sentence the API answers (without the field's name). */
  message: string;
}

/**
 * Whether MDX content (a blog post's, a page's) compiles as the clients will compile it: null, or the compiler's
 * fault. `:::tip` lines are plain text to MDX.
 */
export async function mdxFault(content: string): Promise<MdxFault | null> {
  try {
    await compile(content);
    return null;
  } catch (err) {
    const e = err as { reason?: string; message?: string; line?: number; column?: number };
    const reason = e.reason ?? e.message ?? String(err);
    return { reason, line: e.line ?? null, column: e.column ?? null, message: bundleMessages.mdxDoesNotCompile(reason, e.line, e.column) };
  }
}

/** A fault at `content` with the line and column the compiler names, when MDX content does not compile. */
export async function mdxContentFaults(content: string): Promise<BundleFault[]> {
  const fault = await mdxFault(content);
  return fault ? [{ path: 'content', message: fault.message }] : [];
}
