import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CATEGORIES, ROOT, categoryOf, filesOf, listTestFiles, sharingOf, unitObstacles } from './categories.ts';
import { importSpecifiers } from '../helpers/import-graph.ts';

describe('test categories', () => {
  const files = listTestFiles();

  it('lists every test file, this one included', () => {
    assert.ok(files.length > 100, `${files.length} test files`);
    assert.ok(files.includes('test/runner/categories.test.ts'));
    assert.ok(files.every((file) => file.startsWith('test/') && file.endsWith('.test.ts')));
  });

  it('puts every test file in exactly one category, and the categories together run every file', () => {
    const byCategory = new Map(CATEGORIES.map((category) => [category, filesOf([category])]));
    for (const file of files) {
      const holders = CATEGORIES.filter((category) => byCategory.get(category)!.includes(file));
      assert.equal(holders.length, 1, `${file} is in ${holders.length === 0 ? 'no category' : holders.join(' and ')}`);
      assert.equal(holders[0], categoryOf(file));
    }
    assert.deepEqual([...byCategory.values()].flat().sort(), files);
    for (const category of CATEGORIES) assert.ok(byCategory.get(category)!.length > 0, `${category} holds no file`);
  });

  it('runs the browser and fuzz directories as their own categories', () => {
    for (const file of files) {
      if (/^test\/(web|console-web)\//.test(file)) assert.equal(categoryOf(file), 'browser', file);
      else if (file.startsWith('test/fuzz/')) assert.equal(categoryOf(file), 'fuzz', file);
      else assert.match(categoryOf(file), /^(unit|api)$/, file);
    }
  });

  it('lets unit and api files share a process with each other, browser files with browser files, fuzz files with none', () => {
    for (const file of files) {
      const expected = { unit: 'tests', api: 'tests', browser: 'browser', fuzz: null }[categoryOf(file)];
      assert.equal(sharingOf(file), expected, file);
    }
  });

  it('runs the browser files on one database (browserDatabaseKinds), never looping over both', () => {
    const browser = filesOf(['browser']);
    const looping = browser.filter((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').includes('testDatabaseKinds'));
    assert.deepEqual(looping, [], 'browser files that would run twice under DATABASE_URL');
    assert.ok(browser.some((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').includes('browserDatabaseKinds()')));
  });

  it('keeps out of unit every file that reaches the app, a database, Redis, a socket, a process or a worker', () => {
    // Files known to do so, each through another route: the app, PGlite behind a fixture, Redis, child processes.
    for (const file of ['test/cities/cities.test.ts', 'test/chat/eval.test.ts', 'test/http/rate-windows.test.ts', 'test/runner/run.test.ts']) {
      if (!files.includes(file)) continue;
      assert.equal(categoryOf(file), 'api', file);
      assert.notDeepEqual(unitObstacles(file), [], file);
    }
    for (const file of filesOf(['unit'])) assert.deepEqual(unitObstacles(file), [], file);
  });

  it('finds the pure functions of the kernel to be unit tests', () => {
    const kernel = files.filter((file) => file.startsWith('test/kernel/'));
    assert.ok(kernel.length > 0);
    for (const file of kernel) assert.equal(categoryOf(file), 'unit', `${file}: ${unitObstacles(file).join(', ')}`);
  });

  it('reads imports as the compiler keeps them', () => {
    const source = [
      "import { describe } from 'node:test';",
      "import type { Database } from '../../src/db/database.ts';",
      "export type { Clock } from '../../src/app.ts';",
      "import {\n  buildTestApp,\n  type TestAppOptions,\n} from '../helpers/app.ts';",
      "import '../helpers/side-effect.ts';",
      "export * from './reexported.ts';",
      "const lazy = () => import('pg');",
      "// import { gone } from 'ioredis';",
      "/* import { gone } from '@electric-sql/pglite'; */",
      "const text = 'import nothing';",
    ].join('\n');
    assert.deepEqual(importSpecifiers(source).sort(), ['../helpers/app.ts', '../helpers/side-effect.ts', './reexported.ts', 'node:test', 'pg'].sort());
  });
});
