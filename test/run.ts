/**
 * The test runner behind `npm test` and the `test:*` scripts: node:test over the test files, each in its own process,
 * as many at a time as the machine has cores (at least two), reported as `node --test` does.
 *
 *   node test/run.ts                          every test file (what `npm test` runs after tsc)
 *   node test/run.ts --category unit,api      the files of those categories (test/runner/categories.ts)
 *   node test/run.ts test/cms/*.test.ts       these files (paths or globs)
 *   node test/run.ts --concurrency 4 …        another number of files at a time
 *
 * Node runs the TypeScript itself (its type stripping, as `npm start` does; tsconfig's `erasableSyntaxOnly` keeps
 * the code within it): no loader in each file's process, whose start cost a quarter of a short file's CPU.
 *
 * The slowest files start first, so that the run does not end with one long file alone: each run records how long
 * each file took (node_modules/.cache/collecte-test/durations.json); a file never timed on this machine takes its
 * time from test/runner/durations.json, committed, and a file timed nowhere starts first.
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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CATEGORIES, categoryOf, listTestFiles } from './runner/categories.ts';

/** What V8 prints when it aborts the process (a CHECK, a fatal out-of-memory in a compiler zone, a crash signal). */
const V8_FATAL = /^#\s*(Fatal error in|Fatal process out of memory)|Check failed: jit_page_/m;

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/collecte-test');
const LOCAL_DURATIONS = path.join(CACHE_DIR, 'durations.json');
const COMMITTED_DURATIONS = path.join(ROOT, 'test/runner/durations.json');

const { values: options, positionals: patterns } = parseArgs({
  allowPositionals: true,
  options: { category: { type: 'string', multiple: true }, concurrency: { type: 'string' } },
});

const categories = (options.category ?? []).flatMap((c) => c.split(',')).filter((c) => c !== '');
for (const category of categories) {
  if (!(CATEGORIES as readonly string[]).includes(category)) {
    process.stderr.write(`Unknown test category ${category}: one of ${CATEGORIES.join(', ')}\n`);
    process.exit(2);
  }
}
const concurrency = options.concurrency ? Number(options.concurrency) : Math.max(2, os.availableParallelism());
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`--concurrency wants a whole number of files at a time, not ${options.concurrency}\n`);
  process.exit(2);
}

/** The files named (paths or globs, relative to the working directory) or every test file, in the categories asked. */
function selectFiles(): string[] {
  let files: string[];
  if (patterns.length === 0) {
    files = listTestFiles(ROOT).map((file) => path.relative(process.cwd(), path.join(ROOT, file)));
  } else {
    files = [];
    for (const pattern of patterns) {
      const matched = fs.globSync(pattern).sort();
      if (matched.length === 0) {
        process.stderr.write(`No test file matches ${pattern}\n`);
        process.exitCode = 1;
      }
      files.push(...matched);
    }
    files = [...new Set(files)];
  }
  if (categories.length > 0) files = files.filter((file) => categories.includes(categoryOf(path.resolve(file), ROOT)));
  return files;
}

/** Durations in milliseconds by file (relative to the repository), per database set: PGlite alone, or with PostgreSQL. */
type Durations = Record<string, Record<string, number>>;
const MODE = process.env.DATABASE_URL ? 'postgres' : 'pglite';

function readDurations(file: string): Durations {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Durations;
  } catch {
    return {};
  }
}

/** Longest first; a file with no known duration first of all (a new file may be a long one). */
function slowestFirst(files: string[]): string[] {
  const local = readDurations(LOCAL_DURATIONS);
  const committed = readDurations(COMMITTED_DURATIONS);
  const other = MODE === 'pglite' ? 'postgres' : 'pglite';
  const known = (file: string): number => {
    const key = path.relative(ROOT, path.resolve(file)).split(path.sep).join('/');
    return local[MODE]?.[key] ?? committed[MODE]?.[key] ?? local[other]?.[key] ?? committed[other]?.[key] ?? Infinity;
  };
  return files.map((file) => ({ file, ms: known(file) })).sort((a, b) => b.ms - a.ms).map((entry) => entry.file);
}

/** Adds this run's durations to the machine's own, written whole or not at all (another run may read it). */
function saveDurations(measured: Map<string, number>): void {
  if (measured.size === 0) return;
  try {
    const durations = readDurations(LOCAL_DURATIONS);
    const mine = (durations[MODE] ??= {});
    for (const [file, ms] of measured) mine[path.relative(ROOT, file).split(path.sep).join('/')] = Math.round(ms);
    durations[MODE] = Object.fromEntries(Object.entries(mine).sort(([a], [b]) => a.localeCompare(b)));
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${LOCAL_DURATIONS}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(durations, null, 2) + '\n');
    fs.renameSync(temporary, LOCAL_DURATIONS);
  } catch (err) {
    process.stderr.write(`Could not record the files' durations: ${(err as Error).message}\n`);
  }
}

interface Outcome {
  /** Files that had a failing test or whose process failed. */
  failed: Set<string>;
  /** Files with a failing test of their own (not only the file's process failing). */
  failedTests: Set<string>;
  /** Everything each file wrote to stderr. */
  stderr: Map<string, string>;
  /** How long each file's process took, for the files that passed. */
  durations: Map<string, number>;
}

async function runFiles(files: string[]): Promise<Outcome> {
  const outcome: Outcome = { failed: new Set(), failedTests: new Set(), stderr: new Map(), durations: new Map() };
  // PGlite's PostgreSQL is 9 MiB of WebAssembly, and V8 recompiled its hot functions with its optimizing compiler in
  // every test process: a quarter more CPU for each database a test starts, and some 500 MiB more memory. `npm start`
  // runs with the same flag (docs/operating.md, Memory).
  const stream = run({ files, concurrency, execArgv: ['--liftoff-only'] });
  const watch = new Transform({
    objectMode: true,
    transform(
      event: {
        type: string;
        data: { file?: string; message?: string; name?: string; nesting?: number; details?: { passed?: boolean; duration_ms?: number } };
      },
      _encoding,
      done,
    ) {
      const file = event.data.file && path.resolve(event.data.file);
      // The file's own entry is named by its path; every test in it has its own name.
      const isFileEntry = !!file && event.data.nesting === 0 && !!event.data.name && path.resolve(event.data.name) === file;
      if (event.type === 'test:fail' && file) outcome.failed.add(file);
      if (event.type === 'test:fail' && file && !isFileEntry) outcome.failedTests.add(file);
      if (event.type === 'test:complete' && isFileEntry && event.data.details?.passed && event.data.details.duration_ms !== undefined) {
        outcome.durations.set(file, event.data.details.duration_ms);
      }
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

// Each file's process compiles the same few hundred modules: let Node keep their compiled code between processes.
process.env.NODE_COMPILE_CACHE ??= path.join(ROOT, 'node_modules/.cache/node-compile-cache');

const files = slowestFirst(selectFiles());
if (files.length === 0) {
  process.stderr.write(`No test file to run${categories.length > 0 ? ` in ${categories.join(', ')}` : ''}\n`);
  process.exit(1);
}

const first = await runFiles(files);
const crashed = [...first.failed].filter((file) => V8_FATAL.test(first.stderr.get(file) ?? ''));
const otherFailures = [...first.failed].filter((file) => !crashed.includes(file));

let exitCode = otherFailures.length > 0 || process.exitCode === 1 ? 1 : 0;
const durations = first.durations;
if (crashed.length > 0) {
  const names = crashed.map((file) => path.relative(process.cwd(), file));
  process.stdout.write(
    `\nV8 aborted the process of ${names.join(', ')} (nodejs/node#64500); running ${crashed.length === 1 ? 'it' : 'them'} once more:\n`,
  );
  for (const file of crashed) {
    const printed = first.stderr.get(file) ?? '';
    process.stdout.write(`--- the end of what ${path.relative(process.cwd(), file)} printed before it died:\n${printed.slice(-4000)}\n`);
  }
  const second = await runFiles(crashed.map((file) => path.relative(process.cwd(), file)));
  if (second.failed.size > 0) exitCode = 1;
  for (const [file, ms] of second.durations) durations.set(file, ms);
}
// A file that failed with no failing test of its own died some other way: what it printed last says how.
for (const file of otherFailures.filter((f) => !first.failedTests.has(f))) {
  const printed = first.stderr.get(file) ?? '';
  process.stdout.write(`\n--- ${path.relative(process.cwd(), file)} failed outside its tests; the end of what it printed:\n${printed.slice(-4000) || '(nothing)'}\n`);
}
saveDurations(new Map([...durations].filter(([file]) => file.startsWith(path.join(ROOT, 'test') + path.sep) && file.endsWith('.test.ts'))));
process.exitCode = exitCode;
