import { compileSync } from '@mdx-js/mdx';
import { serveJobs } from '../../kernel/worker-pool.ts';
import type { CompilerFault } from './mdx.ts';

/** A worker thread of the MDX compiler pool (mdx.ts): compiles content off the event loop, and says why it does not. */
serveJobs((content: string): CompilerFault | null => {
  try {
    compileSync(content);
    return null;
  } catch (err) {
    const e = err as { reason?: string; message?: string; line?: number; column?: number };
    return { reason: e.reason ?? e.message ?? String(err), line: e.line ?? null, column: e.column ?? null };
  }
});
