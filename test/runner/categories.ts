/**
 * The four kinds of test file, each with its npm script, decided by a rule rather than by lists:
 *
 * - browser (`npm run test:browser`): the files under `test/web/` and `test/console-web/`, which drive Chromium;
 * - fuzz (`npm run test:fuzz`): the files under `test/fuzz/`;
 * - unit (`npm run test:unit`): every other file whose imports, followed through the repository's own modules, reach
 *   nothing that builds the app, opens a database, Redis or a socket, or starts a process or a worker (the modules
 *   and packages of UNIT_FORBIDDEN): pure functions, a few seconds in all;
 * - api (`npm run test:api`): everything else.
 *
 * A file moves from unit to api by itself the day it imports a database helper. `test/runner/categories.test.ts`
 * checks that every test file falls in exactly one category.
 */
import fs from 'node:fs';
import path from 'node:path';
import { moduleGraph } from '../helpers/import-graph.ts';

export const CATEGORIES = ['unit', 'api', 'browser', 'fuzz'] as const;
export type Category = (typeof CATEGORIES)[number];

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Which files are test files: what `npm test` runs. */
export const TEST_GLOB = 'test/**/*.test.ts';

/** Every test file, relative to the repository, with `/` separators, sorted. */
export function listTestFiles(root = ROOT): string[] {
  return fs
    .globSync(TEST_GLOB, { cwd: root })
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

const BROWSER_DIRS = ['test/web/', 'test/console-web/'];
const FUZZ_DIRS = ['test/fuzz/'];

/**
 * What a unit test may not load, directly or through the repository's own modules: building the app or the server,
 * the database layer and the test helpers around it, the drivers (PGlite, PostgreSQL, Redis), the browser, sockets,
 * child processes and workers.
 */
export const UNIT_FORBIDDEN = {
  files: [
    'src/app.ts',
    'src/server.ts',
    'src/cli.ts',
    'src/db/database.ts',
    'test/helpers/app.ts',
    'test/helpers/database.ts',
    'test/helpers/browser.ts',
    'test/helpers/console-browser.ts',
    'test/helpers/server-process.ts',
  ],
  packages: [
    '@electric-sql/pglite',
    'pg',
    'ioredis',
    'playwright-core',
    'node:child_process',
    'node:worker_threads',
    'node:cluster',
    'node:net',
    'node:http',
    'node:https',
    'node:http2',
    'node:dgram',
    'node:tls',
  ],
};

/** `@scope/name/sub` → `@scope/name`, `pg/lib/x` → `pg`, `child_process` → `node:child_process`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? `node:${name}` : name;
}

const BUILTINS = new Set(['child_process', 'worker_threads', 'cluster', 'net', 'http', 'https', 'http2', 'dgram', 'tls']);

function relative(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join('/');
}

/** Why `file` cannot be a unit test (the forbidden modules it reaches), or [] when it can. */
export function unitObstacles(file: string, root = ROOT): string[] {
  const graph = moduleGraph(path.resolve(root, file));
  const files = [...graph.files].map((f) => relative(root, f)).filter((f) => UNIT_FORBIDDEN.files.includes(f));
  const packages = [...graph.packages].filter((p) => UNIT_FORBIDDEN.packages.includes(packageName(p)));
  return [...files, ...packages].sort();
}

export function categoryOf(file: string, root = ROOT): Category {
  const name = relative(root, file);
  if (BROWSER_DIRS.some((dir) => name.startsWith(dir))) return 'browser';
  if (FUZZ_DIRS.some((dir) => name.startsWith(dir))) return 'fuzz';
  return unitObstacles(name, root).length === 0 ? 'unit' : 'api';
}

/**
 * Which files a file may share its process with (test/run.ts's batches), or null for a process of its own:
 * - `tests`: the unit and api files, which hold nothing beyond their tests (a database, an app, a server each test
 *   closes);
 * - `browser`: the browser files, among themselves: each holds its own server and browser contexts, and they share the
 *   process's Chromium (test/helpers/browser.ts);
 * - the fuzz files take a process of their own, as do the files that are long anyway.
 */
export function sharingOf(file: string, root = ROOT): 'tests' | 'browser' | null {
  const name = relative(root, file);
  if (FUZZ_DIRS.some((dir) => name.startsWith(dir))) return null;
  return BROWSER_DIRS.some((dir) => name.startsWith(dir)) ? 'browser' : 'tests';
}

/** The test files of the given categories, relative to the repository, sorted. */
export function filesOf(categories: readonly Category[], root = ROOT): string[] {
  return listTestFiles(root).filter((file) => categories.includes(categoryOf(file, root)));
}
