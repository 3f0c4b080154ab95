import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// The direction of imports between the code's tiers (docs/architecture.md): the kernel depends on nothing of the
// application, an area never imports another area, nothing imports the app that assembles them, and no file imports
// itself back through others (type-only imports included: a circle of types is a circle a reader must follow).

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

/** The tier or area a module belongs to: its first folder under src/, or `app` for the files at src/'s root. */
const homeOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0] : 'app');

/** Tiers below the areas, and what each may import besides itself. */
const TIERS: Record<string, readonly string[]> = {
  // Errors, schema blocks, pagination, French text and dates, holidays, geo, search text: nothing of the application.
  kernel: [],
  db: ['kernel', 'app'],
  // The city model, the calendar engine, the sorting guide, challenge availability, address matching.
  domain: ['kernel', 'db'],
  http: ['kernel', 'db', 'domain'],
};
/** What every area may import besides itself: the tiers below it and the admin framework with accounts (auth). */
const BELOW_AREAS = ['kernel', 'db', 'domain', 'http', 'auth'];
/** The import bundle is an adapter over the areas: it may import any of them (the arrow runs adapter → area). */
const ADAPTERS = ['bundle', 'demo'];

/**
 * Imports that break the rule today, each to be removed by moving the write rules beside their entities: an area
 * that checks its records with the import bundle's rules. The list may only shrink (the test fails on a stale entry).
 */
const KNOWN_DEBT = new Set([
  'blog/admin-posts.ts -> bundle/rules/blog.ts',
  'calendar/admin-exceptions.ts -> bundle/rules/cities.ts',
  'calendar/admin-preview.ts -> bundle/faults.ts',
  'calendar/admin-preview.ts -> bundle/rules/cities.ts',
  'challenges/admin-challenges.ts -> bundle/rules/challenges.ts',
  'challenges/admin-quiz-questions.ts -> bundle/rules/cities.ts',
  'challenges/admin-series.ts -> bundle/rules/challenges.ts',
  'cities/admin-cities.ts -> bundle/rules/cities.ts',
  'cities/admin-city-groups.ts -> bundle/rules/cities.ts',
  'cities/admin-places.ts -> bundle/city-rows.ts',
  'cities/admin-places.ts -> bundle/rules/cities.ts',
  'cities/admin-places.ts -> bundle/rules/streets.ts',
  'cities/admin-schemas.ts -> bundle/schema.ts',
  'cities/admin-streets.ts -> bundle/rules/streets.ts',
  'cms/admin-menus.ts -> bundle/rules/sites.ts',
  'cms/admin-pages.ts -> bundle/rules/sites.ts',
  'cms/content-check-routes.ts -> bundle/rules/mdx.ts',
  'recycling/admin-points.ts -> bundle/rules/cities.ts',
]);

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
    const debtSeen = new Set<string>();
    for (const [from, targets] of graph) {
      for (const to of targets) {
        if (allowed(from, to)) continue;
        if (KNOWN_DEBT.has(key(from, to))) debtSeen.add(key(from, to));
        else broken.push(key(from, to));
      }
    }
    assert.deepEqual(broken, [], 'imports against the tiers (docs/architecture.md)');
    const paid = [...KNOWN_DEBT].filter((edge) => !debtSeen.has(edge));
    assert.deepEqual(paid, [], 'these imports are gone: take them out of KNOWN_DEBT');
  });

  it('has no circle of imports, type-only ones included', () => {
    // Tarjan's strongly connected components: any component of more than one module is a circle.
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
    assert.deepEqual(circles, []);
  });
});
