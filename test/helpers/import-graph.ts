import fs from 'node:fs';
import path from 'node:path';

/**
 * What a TypeScript module loads when it runs, read from its source: the specifiers of its `import … from`,
 * `export … from`, side-effect `import '…'` and, unless `dynamic` is false, `import('…')` with a literal. `import type`
 * and `export type` are left out (erased); an import naming only types is kept, as `verbatimModuleSyntax` keeps it.
 */
export function importSpecifiers(source: string, { dynamic = true }: { dynamic?: boolean } = {}): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const statement = /(?:^|[;}\n])\s*(import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g;
  for (const match of code.matchAll(statement)) {
    if (!match[2]) found.push(match[3]);
  }
  if (dynamic) for (const match of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]);
  return found;
}

export interface ModuleGraph {
  /** Every local file reached, the start included, as absolute paths. */
  files: Set<string>;
  /** Every package or built-in specifier reached (`pg`, `node:child_process`, `kysely/migration`). */
  packages: Set<string>;
}

/** Each file's own imports, read once per process (a walk over many test files meets the same modules). */
const edges = new Map<string, { files: string[]; packages: string[] }>();

function importsOf(file: string, dynamic: boolean): { files: string[]; packages: string[] } {
  const key = `${dynamic ? 'all' : 'static'} ${file}`;
  let found = edges.get(key);
  if (!found) {
    const specifiers = /\.[cm]?[jt]sx?$/.test(file) && fs.existsSync(file) ? importSpecifiers(fs.readFileSync(file, 'utf8'), { dynamic }) : [];
    found = {
      files: specifiers.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s)),
      packages: specifiers.filter((s) => !s.startsWith('.')),
    };
    edges.set(key, found);
  }
  return found;
}

/**
 * The local modules `entry` loads, directly or through other local modules (relative specifiers), and the
 * packages and built-ins they name. With `dynamic` false, `import('…')` is not followed: what loading `entry`
 * loads at once, before any of its code asks for more.
 */
export function moduleGraph(entry: string, { dynamic = true }: { dynamic?: boolean } = {}): ModuleGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [path.resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const found = importsOf(file, dynamic);
    for (const next of found.files) if (!files.has(next)) pending.push(next);
    for (const specifier of found.packages) packages.add(specifier);
  }
  return { files, packages };
}
