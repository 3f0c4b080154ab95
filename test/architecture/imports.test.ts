import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// The direction of imports between the code's tiers (docs/architecture.md): the kernel depends on nothing of the
// application, an area never imports another area, nothing imports the app that assembles them, no file imports
// itself back through others (type-only imports included: a circle of types is a circle a reader must follow), and no
// folder does either: the tiers and areas form a graph without circles, so each can be read knowing only those below.

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every module of src/, by path relative to src/, with the relative modules it imports (static and dynamic). */
function importGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(path.relative(SRC, full));
    }
  };
  walk(SRC);
  const graph = new Map<string, string[]>();
  // A worker's file, started with `new URL(…)`, is no import: the worker runs apart and may import its starter's types.
  const specifier = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;
  for (const file of files) {
    const text = fs.readFileSync(path.join(SRC, file), 'utf8');
    const targets = [...text.matchAll(specifier)].map((m) => path.normalize(path.join(path.dirname(file), m[1] ?? m[2])));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a directed graph: its strongly connected components of more than one node (Tarjan), each sorted. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** The tier or area a module belongs to: its first folder under src/, or `app` for the files at src/'s root. */
const homeOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0] : 'app');

/** Tiers below the areas, and what each may import besides itself. */
const TIERS: Record<string, readonly string[]> = {
  // Errors, schema blocks, pagination, French text and dates, holidays, geo, search text: nothing of the application.
  kernel: [],
  db: ['kernel', 'app'],
  // The city model, the calendar engine, the sorting guide, challenge availability, address matching, the write rules
  // several areas share.
  domain: ['kernel', 'db'],
  http: ['kernel', 'db', 'domain'],
  // The admin framework: declared resources, the agent's reach over groups, If-Match, the audit log, the data version.
  admin: ['kernel', 'db', 'domain'],
  // Accounts, login and the guard; its own admin routes (accounts, the audit log) are declared through the framework.
  auth: ['kernel', 'db', 'admin', 'app'],
};
/** What every area may import besides itself: the tiers below it, the admin framework and accounts (auth). */
const BELOW_AREAS = ['kernel', 'db', 'domain', 'http', 'admin', 'auth'];
/** The import bundle and Open311 are adapters over the areas: they may import any of them (the arrow runs adapter → area). */
const ADAPTERS = ['bundle', 'demo', 'open311'];

/** Whether `from` may import `to` (both relative to src/). */
function allowed(from: string, to: string): boolean {
  const [a, b] = [homeOf(from), homeOf(to)];
  if (a === b || a === 'app') return true;
  // Of the files at src/'s root, the config and the logger are read below the app; the app itself by nobody.
  const rootFile = b === 'app' && (to === 'config.ts' || to === 'logger.ts');
  if (a in TIERS) return TIERS[a].includes(b) && (b !== 'app' || rootFile);
  if (b === 'app') return rootFile;
  if (ADAPTERS.includes(a)) return !ADAPTERS.includes(b) || a === 'demo';
  // The console reads conversations through the one entry point the chat gives it.
  if (a === 'console' && to === path.join('chat', 'for-console.ts')) return true;
  return BELOW_AREAS.includes(b);
}

const key = (from: string, to: string) => `${from.split(path.sep).join('/')} -> ${to.split(path.sep).join('/')}`;

describe('the direction of imports', () => {
  const graph = importGraph();

  it('imports only what exists', () => {
    for (const [from, targets] of graph) for (const to of targets) assert.ok(graph.has(to), `${from} imports ${to}, which is not a module of src/`);
  });

  it('keeps each tier to what it may import; an area never imports another area', () => {
    const broken: string[] = [];
    for (const [from, targets] of graph) for (const to of targets) if (!allowed(from, to)) broken.push(key(from, to));
    assert.deepEqual(broken, [], 'imports against the tiers (docs/architecture.md)');
  });

  it('has no circle of imports, type-only ones included', () => {
    assert.deepEqual(circlesOf(graph), []);
  });

  it('has no circle between folders: a tier or an area never needs, through others, what needs it', () => {
    // One node per first folder under src/; each file at src/'s root is a node of its own (the config and the
    // logger are read below the app, which imports everything).
    const folderOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0] : file);
    const folders = new Map<string, Set<string>>();
    for (const [from, targets] of graph) {
      const edges = folders.get(folderOf(from)) ?? new Set<string>();
      folders.set(folderOf(from), edges);
      for (const to of targets) if (folderOf(to) !== folderOf(from)) edges.add(folderOf(to));
    }
    const circles = circlesOf(new Map([...folders].map(([folder, edges]) => [folder, [...edges]])));
    assert.deepEqual(circles, [], 'folders that import each other, directly or through others');
  });
});
