/**
 * The test runner behind `npm test`: node:test over every test file, two files at a time, each in its own process,
 * reported as `node --test` does.
 *
 * One fault is not ours and is handled here: Node 24's V8 can abort a process that creates and frees many
 * WebAssembly instances (the embedded PGlite does, one per test) with a fatal CHECK in its JIT page registry,
 * `Check failed: jit_page_->allocations_.erase(addr) == 1` (nodejs/node#64500, electric-sql/pglite#1053). It
 * strikes a random file in perhaps one run of two. A file whose process died of a V8 fatal error, and only that, is
 * run once more on its own; the run says so. Any other failure, and a second V8 death of the same file, fail the run.
 */
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { finished } from 'node:stream/promises';
import { Transform } from 'node:stream';
import path from 'node:path';

/** What V8 prints when it aborts the process (a CHECK, a fatal out-of-memory in a compiler zone, a crash signal). */
const V8_FATAL = /^#\s*(Fatal error in|Fatal process out of memory)|Check failed: jit_page_/m;

const patterns = process.argv.slice(2);
const globPatterns = patterns.length > 0 ? patterns : ['test/**/*.test.ts'];

interface Outcome {
  /** Files that had a failing test or whose process failed. */
  failed: Set<string>;
  /** Files with a failing test of their own (not only the file's process failing). */
  failedTests: Set<string>;
  /** Everything each file wrote to stderr. */
  stderr: Map<string, string>;
}

async function runFiles(options: { globPatterns: string[] } | { files: string[] }): Promise<Outcome> {
  const outcome: Outcome = { failed: new Set(), failedTests: new Set(), stderr: new Map() };
  const stream = run({ ...options, concurrency: 2 });
  const watch = new Transform({
    objectMode: true,
    transform(event: { type: string; data: { file?: string; message?: string; name?: string } }, _encoding, done) {
      const file = event.data.file && path.resolve(event.data.file);
      if (event.type === 'test:fail' && file) outcome.failed.add(file);
      // The file's own entry is named by its path; every test in it has its own name.
      if (event.type === 'test:fail' && file && event.data.name !== event.data.file) outcome.failedTests.add(file);
      if (event.type === 'test:stderr' && file) outcome.stderr.set(file, (outcome.stderr.get(file) ?? '') + (event.data.message ?? ''));
      done(null, event);
    },
  });
  const reporter = stream.compose(watch).compose(spec());
  // process.stdout never finishes: write to it without ending it, and wait for the reporter's own end.
  reporter.pipe(process.stdout, { end: false });
  await finished(reporter);
  return outcome;
}

const first = await runFiles({ globPatterns });
const crashed = [...first.failed].filter((file) => V8_FATAL.test(first.stderr.get(file) ?? ''));
const otherFailures = [...first.failed].filter((file) => !crashed.includes(file));

let exitCode = otherFailures.length > 0 ? 1 : 0;
if (crashed.length > 0) {
  const names = crashed.map((file) => path.relative(process.cwd(), file));
  process.stdout.write(
    `\nV8 aborted the process of ${names.join(', ')} (nodejs/node#64500); running ${crashed.length === 1 ? 'it' : 'them'} once more:\n`,
  );
  for (const file of crashed) {
    const printed = first.stderr.get(file) ?? '';
    process.stdout.write(`--- the end of what ${path.relative(process.cwd(), file)} printed before it died:\n${printed.slice(-4000)}\n`);
  }
  const second = await runFiles({ files: crashed });
  if (second.failed.size > 0) exitCode = 1;
}
// A file that failed with no failing test of its own died some other way: what it printed last says how.
for (const file of otherFailures.filter((f) => !first.failedTests.has(f))) {
  const printed = first.stderr.get(file) ?? '';
  process.stdout.write(`\n--- ${path.relative(process.cwd(), file)} failed outside its tests; the end of what it printed:\n${printed.slice(-4000) || '(nothing)'}\n`);
}
process.exitCode = exitCode;
