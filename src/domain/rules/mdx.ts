import os from 'node:os';
import { bundleMessages } from '../../kernel/validation-messages.ts';
import { createWorkerPool, WorkerTimeoutError, type WorkerPool } from '../../kernel/worker-pool.ts';
import type { RecordFault } from './faults.ts';
import { MAX_MDX_NESTING, mdxTooDeep } from './mdx-nesting.ts';

/**
 * MDX is compiled in worker threads, never on the event loop: 90 KB of ordinary MDX takes the compiler about a
 * second, and some contents far longer (see mdx-nesting.ts), which on the event loop would be taken from every
 * request of the instance. Content nested too deeply is refused before compiling; a compilation past its time
 * limit is stopped (its worker is replaced) and the content refused.
 */

/** Why the compiler refuses content, in its words, and where when it says (what a worker answers). */
export interface CompilerFault {
  reason: string;
  line: number | null;
  column: number | null;
}

/** Why MDX does not compile, in the compiler's words, and where when it says. */
export interface MdxFault extends CompilerFault {
  /** The French sentence the API answers (without the field's name). */
  message: string;
}

export type MdxCompiler = WorkerPool<string, CompilerFault | null>;

/**
 * A compilation running longer than this is stopped: ordinary content compiles in a fraction of it (90 KB in about
 * a second, two or three on a loaded 2-core machine), while some contents would hold a worker for minutes.
 */
export const MDX_TIME_LIMIT_MS = 5000;

/**
 * Worker threads at most: one core stays the event loop's (one worker on a 2-core machine), and two are enough for
 * agents' saves and an import's posts and pages.
 */
const MDX_WORKERS = Math.min(2, Math.max(1, os.availableParallelism() - 1));

export interface MdxCompilerOptions {
  /** A compilation running longer is stopped (MDX_TIME_LIMIT_MS; the tests' is shorter). */
  timeLimitMs?: number;
  workers?: number;
}

/**
 * A pool of MDX compilers. Its queue is not bounded: every post and page of an import bundle waits its turn, and
 * agents' checks and saves are few. Idle workers do not keep the process alive, so that `collecte import` exits.
 */
export function createMdxCompiler(options: MdxCompilerOptions = {}): MdxCompiler {
  return createWorkerPool<string, CompilerFault | null>({
    file: new URL('./mdx-worker.ts', import.meta.url),
    size: options.workers ?? MDX_WORKERS,
    maxQueue: Infinity,
    jobTimeoutMs: options.timeLimitMs ?? MDX_TIME_LIMIT_MS,
    unrefWhenIdle: true,
  });
}

/**
 * The process's compilers, started on first use and shared by every app and command of the process (the admin
 * routes, the import bundle); nothing closes them, as idle they hold nothing.
 */
let shared: MdxCompiler | undefined;
const sharedCompiler = () => (shared ??= createMdxCompiler());

/**
 * Whether MDX content (a blog post's, a page's) compiles as the clients will compile it: null, or the compiler's
 * fault (or that it nests too deeply, or takes too long, to be compiled). `:::tip` lines are plain text to MDX.
 */
export async function mdxFault(content: string, compiler: MdxCompiler = sharedCompiler()): Promise<MdxFault | null> {
  const deep = mdxTooDeep(content);
  if (deep) {
    const { kind, line, column } = deep;
    return { reason: `more than ${MAX_MDX_NESTING} levels of ${kind}`, line, column, message: bundleMessages.mdxTooNested(MAX_MDX_NESTING, kind, line, column) };
  }
  let fault: CompilerFault | null;
  try {
    fault = await compiler.run(content);
  } catch (err) {
    // A worker that died otherwise is our failure, not the content's: it is not called slow.
    if (!(err instanceof WorkerTimeoutError)) throw err;
    return { reason: err.message, line: null, column: null, message: bundleMessages.mdxTooSlowToCompile };
  }
  return fault && { ...fault, message: bundleMessages.mdxDoesNotCompile(fault.reason, fault.line ?? undefined, fault.column ?? undefined) };
}

/** A fault at `content` with the line and column the compiler names, when MDX content does not compile. */
export async function mdxContentFaults(content: string): Promise<RecordFault[]> {
  const fault = await mdxFault(content);
  return fault ? [{ path: 'content', message: fault.message }] : [];
}
