// The documentation follows the code it describes: docs/operating.md's configuration table lists exactly the
// environment variables src/config.ts reads, docs/api.md's error code table exactly the codes the catalogue answers
// with, and the README stays a short page that links out, with no development history in it or in docs/.
// Read from the sources' text, not by importing them: a variable or a code added without its line fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The source without its comments, so that an example in a comment is not taken for the real thing. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** The rows (cells trimmed) of the first markdown table after the heading that `heading` matches. */
function tableAfter(markdown: string, heading: RegExp): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+\s/.test(line) && heading.test(line));
  assert.notEqual(start, -1, `no heading matching ${heading}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#+\s/.test(line)) break;
    if (line.startsWith('|')) rows.push(line.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim()));
    else if (rows.length > 0) break;
  }
  assert.ok(rows.length > 2, `no table under the heading matching ${heading}`);
  // The header row, then the |---| row, then the data.
  assert.match(rows[1].join(''), /^[-:\s]+$/, 'the second row of the table is its separator');
  return rows.slice(2);
}

/** Items `list` holds that `other` does not. */
const outside = (list: Iterable<string>, other: Set<string>) => [...new Set(list)].filter((item) => !other.has(item)).sort();

describe('the configuration documented', () => {
  it('lists in docs/operating.md every environment variable src/config.ts reads, and no other', () => {
    const source = withoutComments(read('src/config.ts'));
    // Every parsing helper (str, int, bool, url, trustProxy, consoleSecret, vapidKey, vapidSubject…) takes the
    // environment, then the variable's name.
    const inConfig = new Set([...source.matchAll(/\b\w+\(\s*env\s*,\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]));
    assert.ok(inConfig.size >= 40 && inConfig.has('PORT') && inConfig.has('DATABASE_URL'), `variables read from src/config.ts: ${[...inConfig]}`);
    // A name written as a string anywhere else in the file is read some other way: it must be caught too.
    const literals = [...source.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)'/g)].map((m) => m[1]);
    assert.deepEqual(outside(literals, inConfig), [], 'src/config.ts names a variable outside its parsing helpers');

    const rows = tableAfter(read('docs/operating.md'), /^## Configuration\b/);
    const documented = new Set<string>();
    for (const [first] of rows) {
      const names = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);
      assert.ok(names.length > 0, `a row of the configuration table names no variable: ${first}`);
      for (const name of names) documented.add(name);
    }
    assert.deepEqual(outside(inConfig, documented), [], 'read by src/config.ts but missing from docs/operating.md');
    assert.deepEqual(outside(documented, inConfig), [], 'in docs/operating.md but not read by src/config.ts');
  });
});

/** Every code of the catalogue, with the statuses it is answered with where the source says them. */
function catalogue(): Map<string, Set<number>> {
  const codes = new Map<string, Set<number>>();
  const add = (code: string, status?: string) => {
    const statuses = codes.get(code) ?? new Set<number>();
    if (status !== undefined) statuses.add(Number(status));
    codes.set(code, statuses);
  };
  for (const file of ['src/kernel/errors.ts', 'src/http/error-handler.ts']) {
    const source = withoutComments(read(file));
    for (const m of source.matchAll(/\b(?:make|fieldError)\(\s*'([a-z]\w*)'\s*,\s*(\d{3})/g)) add(m[1], m[2]);
    for (const m of source.matchAll(/\bcode:\s*'([a-z]\w*)'/g)) add(m[1]);
    for (const m of source.matchAll(/\bstatus:\s*(\d{3})\s*,\s*code:\s*'([a-z]\w*)'/g)) add(m[2], m[1]);
    // `errors.unauthorized(message, 'loginFailed')`, and the code it gives by default.
    for (const m of source.matchAll(/\bunauthorized\(\s*(?:'[^']*'|"[^"]*"|`[^`]*`)\s*,\s*'([a-z]\w*)'\s*\)/g)) add(m[1], '401');
    for (const m of source.matchAll(/\bunauthorized:\s*\([^)]*\bcode\s*=\s*'([a-z]\w*)'/g)) add(m[1], '401');
    // `errorBody(404, messages.routeNotFound(…), 'routeNotFound')`: the code is the call's string literal.
    for (const m of source.matchAll(/\berrorBody\(((?:[^()]|\([^()]*\))*)\)/g)) {
      const code = /'([a-z][A-Za-z]*)'/.exec(m[1]);
      if (code) add(code[1], /^\s*(\d{3})\s*,/.exec(m[1])?.[1]);
    }
  }
  return codes;
}

describe('the error codes documented', () => {
  it('lists in docs/api.md every code of the catalogue, each with its status, and no other', () => {
    const codes = catalogue();
    for (const code of ['validation', 'rateLimited', 'unauthorized', 'loginFailed', 'preconditionRequired', 'routeNotFound', 'invalidJson', 'internal']) {
      assert.ok(codes.has(code), `${code} is read from the catalogue's source`);
    }

    const rows = tableAfter(read('docs/api.md'), /Error codes/);
    const documented = new Map<string, string>();
    for (const [first, status = ''] of rows) {
      const code = /^`([A-Za-z][A-Za-z0-9]*)`$/.exec(first)?.[1];
      assert.ok(code, `the first cell of a row of the error code table is one backticked code: ${first}`);
      assert.ok(!documented.has(code), `${code} is listed twice`);
      documented.set(code, status);
    }
    const known = new Set(codes.keys());
    assert.deepEqual(outside(known, new Set(documented.keys())), [], 'codes of the catalogue missing from docs/api.md');
    assert.deepEqual(outside(documented.keys(), known), [], 'codes in docs/api.md that the catalogue does not have');
    for (const [code, statuses] of codes) {
      const said = new Set([...(documented.get(code) ?? '').matchAll(/\b\d{3}\b/g)].map((m) => Number(m[0])));
      for (const status of statuses) assert.ok(said.has(status), `docs/api.md gives ${code} the status ${status}`);
    }
  });
});

describe('the README and docs/', () => {
  it('keep the README under 200 lines and name no issue numbers', () => {
    const readme = read('README.md');
    assert.ok(readme.split('\n').length < 200, `README.md has ${readme.split('\n').length} lines`);
    const pages = fs.readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((file) => !/\.(png|jpe?g|gif|webp|svg)$/i.test(file))
      .map((file) => path.join('docs', file))
      .filter((file) => fs.statSync(path.join(root, file)).isFile());
    assert.ok(pages.length > 0, 'docs/ holds pages');
    for (const file of ['README.md', ...pages]) {
      const hit = /issue \d+/i.exec(read(file));
      assert.equal(hit, null, `${file} says « ${hit?.[0]} »: history goes to CHANGELOG.md, in words`);
    }
  });
});
