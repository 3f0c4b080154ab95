/**
 * The test runner behind `npm test` and the `test:*` scripts: node:test over the test files, in processes of their own
 * (short files share one in batches, below), one more at a time than the machine has cores (at least two), reported
 * as `node --test` does.
 *
 *   node test/run.ts                          every test file
 *   node test/run.ts --typecheck              and tsc beside them (what `npm test` runs)
 *   node test/run.ts --category unit,api      the files of those categories (test/runner/categories.ts)
 *   node test/run.ts test/cms/*.test.ts       these files (paths or globs)
 *   node test/run.ts --concurrency 4 …        another number of files at a time
 *
 * Node runs the TypeScript itself (its type stripping, as `npm start` does; tsconfig's `erasableSyntaxOnly` keeps
 * the code within it): no loader in each file's process, whose start cost a quarter of a short file's CPU.
 *
 * Short unit and api files share a process, a few at a time (a batch): starting a process, loading the app's modules
 * and an embedded database cost about a second of CPU, as much as such a file's tests. A batch is a file the runner
 * writes (in the system's temporary folder) that imports its files one after the other; their tests run in
 * turn and are reported under their own files. A file that fails to load fails as a test of its own, and the other
 * files of its batch still run. `--batch-ms 0` runs every file in a process of its own, as before.
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
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { CATEGORIES, categoryOf, listTestFiles, sharingOf } from './runner/categories.ts';

/** What V8 prints when it aborts the process (a CHECK, a fatal out-of-memory in a compiler zone, a crash signal). */
const V8_FATAL = /^#\s*(Fatal error in|Fatal process out of memory)|Check failed: jit_page_/m;

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/collecte-test');
const LOCAL_DURATIONS = path.join(CACHE_DIR, 'durations.json');
const COMMITTED_DURATIONS = path.join(ROOT, 'test/runner/durations.json');

const { values: options, positionals: patterns } = parseArgs({
  allowPositionals: true,
  options: {
    category: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    'batch-ms': { type: 'string' },
    durations: { type: 'string' },
    typecheck: { type: 'boolean' },
  },
});

const categories = (options.category ?? []).flatMap((c) => c.split(',')).filter((c) => c !== '');
for (const category of categories) {
  if (!(CATEGORIES as readonly string[]).includes(category)) {
    process.stderr.write(`Unknown test category ${category}: one of ${CATEGORIES.join(', ')}\n`);
    process.exit(2);
  }
}
// One more process than cores: a browser file's process waits on Chromium half of its time (on two cores, three at a
// time took the whole run from 507 to 493 seconds; four browser files at a time kept both cores busy).
const concurrency = options.concurrency ? Number(options.concurrency) : Math.max(2, os.availableParallelism()) + 1;
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`--concurrency wants a whole number of files at a time, not ${options.concurrency}\n`);
  process.exit(2);
}

/**
 * A unit or api file whose known duration is under this shares its process with others (0: none does); the files of
 * a batch add up to about BATCH_MS, so that batches are few but none holds the run's end alone.
 */
const batchFileMs = options['batch-ms'] === undefined ? 10_000 : Number(options['batch-ms']);
if (!Number.isFinite(batchFileMs) || batchFileMs < 0) {
  process.stderr.write(`--batch-ms wants a number of milliseconds, not ${options['batch-ms']}\n`);
  process.exit(2);
}
const BATCH_MS = 20_000;

/**
 * The browser files' batches: a file known to take under BROWSER_FILE_MS shares its process with other browser files,
 * in batches of about BROWSER_BATCH_MS. Each saves what a process of its own costs there: Node's start, Chromium's
 * (shared by the process's files), and a colder embedded database.
 */
const BROWSER_FILE_MS = 3 * batchFileMs;
const BROWSER_BATCH_MS = 3 * BATCH_MS;

/**
 * The files named (paths, folders or globs, relative to the working directory; a folder stands for the test files
 * under it) or every test file, in the categories asked.
 */
function selectFiles(): string[] {
  let files: string[];
  if (patterns.length === 0) {
    files = listTestFiles(ROOT).map((file) => path.relative(process.cwd(), path.join(ROOT, file)));
  } else {
    files = [];
    for (const pattern of patterns) {
      const matched = fs
        .globSync(pattern)
        .flatMap((found) => (fs.statSync(found).isDirectory() ? fs.globSync(path.join(found, '**/*.test.ts')) : [found]))
        .sort();
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

/** Each file's known duration (milliseconds), Infinity for a file timed nowhere (a new file may be a long one). */
function knownDurations(files: string[]): Map<string, number> {
  const local = readDurations(options.durations ?? LOCAL_DURATIONS);
  const committed = options.durations ? {} : readDurations(COMMITTED_DURATIONS);
  const other = MODE === 'pglite' ? 'postgres' : 'pglite';
  const known = (file: string): number => {
    const key = path.relative(ROOT, path.resolve(file)).split(path.sep).join('/');
    return local[MODE]?.[key] ?? committed[MODE]?.[key] ?? local[other]?.[key] ?? committed[other]?.[key] ?? Infinity;
  };
  return new Map(files.map((file) => [file, known(file)]));
}

/** What one process runs: a test file, or a batch of short files (`entry` the file the runner wrote for them). */
interface Unit {
  entry: string;
  files: string[];
  ms: number;
}

/**
 * The run's processes, longest first: the short unit and api files spread over batches of about BATCH_MS each (the
 * longest file to the batch holding least so far), the short browser files likewise over batches of their own, every
 * other file alone.
 */
function plan(files: string[]): Unit[] {
  const known = knownDurations(files);
  const units: Unit[] = [];
  const pools = { tests: { fileMs: batchFileMs, batchMs: BATCH_MS, files: [] as string[] }, browser: { fileMs: BROWSER_FILE_MS, batchMs: BROWSER_BATCH_MS, files: [] as string[] } };
  for (const file of files) {
    const ms = known.get(file)!;
    const sharing = sharingOf(path.resolve(file), ROOT);
    if (sharing && ms < pools[sharing].fileMs) pools[sharing].files.push(file);
    else units.push({ entry: file, files: [file], ms });
  }
  let folder: string | undefined;
  for (const pool of Object.values(pools)) {
    if (pool.files.length < 2) {
      for (const file of pool.files) units.push({ entry: file, files: [file], ms: known.get(file)! });
      continue;
    }
    const short = pool.files.sort((a, b) => known.get(b)! - known.get(a)!);
    const total = short.reduce((sum, file) => sum + known.get(file)!, 0);
    const batches = Array.from({ length: Math.max(1, Math.min(short.length, Math.round(total / pool.batchMs))) }, () => ({ files: [] as string[], ms: 0 }));
    for (const file of short) {
      const lightest = batches.reduce((a, b) => (b.ms < a.ms ? b : a));
      lightest.files.push(file);
      lightest.ms += known.get(file)!;
    }
    if (folder === undefined) {
      // A folder of this run's own (a run's test may start another run), gone when the run ends.
      const made = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-test-batches-'));
      process.on('exit', () => fs.rmSync(made, { recursive: true, force: true }));
      folder = made;
    }
    for (const batch of batches) units.push({ entry: writeBatch(folder, units.length + 1, batch.files), ...batch });
  }
  return units.sort((a, b) => b.ms - a.ms);
}

/** The file that runs `files` in one process, each imported in turn; one that fails to load fails as a test. */
function writeBatch(folder: string, number: number, files: string[]): string {
  const entry = path.join(folder, `batch-${String(number).padStart(2, '0')}.test.mjs`);
  const members = files.map((file) => [path.relative(ROOT, path.resolve(file)).split(path.sep).join('/'), pathToFileURL(path.resolve(file)).href]);
  fs.writeFileSync(
    entry,
    [
      '// Written by test/run.ts: these test files in one process, one after the other.',
      "import { test } from 'node:test';",
      `for (const [name, url] of ${JSON.stringify(members)}) {`,
      '  try {',
      '    await import(url);',
      '  } catch (err) {',
      '    test(`${name} loads`, () => { throw err; });',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  return entry;
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
  /** Files (test files, batches) that had a failing test or whose process failed. */
  failed: Set<string>;
  /** Files with a failing test of their own (not only the file's process failing). */
  failedTests: Set<string>;
  /** Everything each process wrote to stderr, by the file it ran. */
  stderr: Map<string, string>;
  /** How long each process took, by the file it ran, for those that passed. */
  durations: Map<string, number>;
  /** How long each test file's top-level tests took together. */
  tests: Map<string, number>;
}

async function runUnits(units: Unit[]): Promise<Outcome> {
  const outcome: Outcome = { failed: new Set(), failedTests: new Set(), stderr: new Map(), durations: new Map(), tests: new Map() };
  // PGlite's PostgreSQL is 9 MiB of WebAssembly, and V8 recompiled its hot functions with its optimizing compiler in
  // every test process: a quarter more CPU for each database a test starts, and some 500 MiB more memory. `npm start`
  // runs with the same flag (docs/operating.md, Memory). TEST_CPU_PROF=<folder>: a CPU profile of each test process
  // there (Node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.TEST_CPU_PROF)}`] : [];
  const stream = run({ files: units.map((unit) => unit.entry), concurrency, execArgv: ['--liftoff-only', ...profile] });
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
      // The process's own entry is named by the path of the file it ran; every test has its own name, and its own file.
      const isFileEntry = !!file && event.data.nesting === 0 && !!event.data.name && path.resolve(event.data.name) === file;
      if (event.type === 'test:fail' && file) outcome.failed.add(file);
      if (event.type === 'test:fail' && file && !isFileEntry) outcome.failedTests.add(file);
      const ms = event.data.details?.duration_ms;
      if (event.type === 'test:complete' && file && event.data.nesting === 0 && ms !== undefined) {
        if (isFileEntry && event.data.details?.passed) outcome.durations.set(file, ms);
        if (!isFileEntry) outcome.tests.set(file, (outcome.tests.get(file) ?? 0) + ms);
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

/** tsc on the project, incrementally (what it learnt kept in the cache folder): its exit code and what it printed. */
function startTypecheck(): Promise<{ code: number | null; output: string }> {
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '-p', ROOT, '--incremental', '--tsBuildInfoFile', path.join(CACHE_DIR, 'tsbuildinfo')];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ code: 1, output: err.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** What the run learnt of its units: which failed, which died of V8's fault, and how long their files took. */
function judge(units: Unit[], outcome: Outcome) {
  const own = (file: string) => path.resolve(file);
  const failed = units.filter((unit) => [unit.entry, ...unit.files].some((file) => outcome.failed.has(own(file))));
  const printed = (unit: Unit) => outcome.stderr.get(own(unit.entry)) ?? '';
  const crashed = failed.filter((unit) => V8_FATAL.test(printed(unit)));
  const durations = new Map<string, number>();
  for (const unit of units) {
    if (unit.files.length === 1 && unit.entry === unit.files[0]) {
      const ms = outcome.durations.get(own(unit.entry));
      if (ms !== undefined) durations.set(own(unit.entry), ms);
      continue;
    }
    // A batch's file is timed by its tests: the process's start is shared.
    for (const file of unit.files) {
      const ms = outcome.tests.get(own(file));
      if (ms !== undefined && !outcome.failed.has(own(file))) durations.set(own(file), ms);
    }
  }
  const diedOutsideTests = failed.filter((unit) => ![unit.entry, ...unit.files].some((file) => outcome.failedTests.has(own(file))));
  return { failed, crashed, durations, diedOutsideTests, printed };
}

// Each file's process compiles the same few hundred modules: let Node keep their compiled code between processes.
process.env.NODE_COMPILE_CACHE ??= path.join(ROOT, 'node_modules/.cache/node-compile-cache');

// `--typecheck` (npm test): tsc beside the tests rather than before them, its verdict at the end.
const typecheck = options.typecheck ? startTypecheck() : null;

const selected = selectFiles();
if (selected.length === 0) {
  process.stderr.write(`No test file to run${categories.length > 0 ? ` in ${categories.join(', ')}` : ''}\n`);
  process.exit(1);
}
const units = plan(selected);

const first = judge(units, await runUnits(units));
const otherFailures = first.failed.filter((unit) => !first.crashed.includes(unit));

let exitCode = otherFailures.length > 0 || process.exitCode === 1 ? 1 : 0;
const durations = first.durations;
if (first.crashed.length > 0) {
  const names = first.crashed.map((unit) => unit.entry);
  process.stdout.write(
    `\nV8 aborted the process of ${names.join(', ')} (nodejs/node#64500); running ${names.length === 1 ? 'it' : 'them'} once more:\n`,
  );
  for (const unit of first.crashed) {
    if (unit.files.length > 1) process.stdout.write(`--- ${unit.entry} runs ${unit.files.join(', ')}\n`);
    process.stdout.write(`--- the end of what ${unit.entry} printed before it died:\n${first.printed(unit).slice(-4000)}\n`);
  }
  const second = judge(first.crashed, await runUnits(first.crashed));
  if (second.failed.length > 0) exitCode = 1;
  for (const [file, ms] of second.durations) durations.set(file, ms);
}
// A process that failed with no failing test of its own died some other way: what it printed last says how.
for (const unit of otherFailures.filter((u) => first.diedOutsideTests.includes(u))) {
  const batch = unit.files.length > 1 ? ` (running ${unit.files.join(', ')})` : '';
  process.stdout.write(`\n--- ${unit.entry}${batch} failed outside its tests; the end of what it printed:\n${first.printed(unit).slice(-4000) || '(nothing)'}\n`);
}
if (typecheck) {
  const { code, output } = await typecheck;
  if (code !== 0) {
    process.stdout.write(`\n--- the type check (tsc -p .) failed:\n${output}\n`);
    exitCode = 1;
  } else {
    process.stdout.write('\nℹ type check (tsc -p .) passed\n');
  }
}
saveDurations(new Map([...durations].filter(([file]) => file.startsWith(path.join(ROOT, 'test') + path.sep) && file.endsWith('.test.ts'))));
process.exitCode = exitCode;
