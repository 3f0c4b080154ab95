import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = (name: string) => `test/runner/fixtures/${name}.fixture.ts`;

/** Runs `test/run.ts` with these arguments, as the npm scripts do. */
function runRunner(args: string[], marker: string): Promise<{ code: number | null; output: string }> {
  // A runner started from inside a test file sees NODE_TEST_CONTEXT and refuses to run files.
  const { NODE_TEST_CONTEXT: _inTest, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['test/run.ts', ...args], {
      cwd: root,
      env: { ...env, RUNNER_FIXTURE_MARKER: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function marker(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'collecte-runner-')), 'marker');
}

test('the test runner’s options and reports', async (t) => {
  await t.test('prints the end of what a file wrote when its process failed outside its tests', async () => {
    const file = marker();
    const { code, output } = await runRunner([fixture('aborts'), fixture('passes')], file);
    assert.equal(code, 1, output);
    assert.equal(readFileSync(file, 'utf8'), 'ran\n');
    assert.match(output, /--- test\/runner\/fixtures\/aborts\.fixture\.ts failed outside its tests; the end of what it printed:/);
    assert.doesNotMatch(output, /passes\.fixture\.ts failed outside its tests/);
  });

  await t.test('does not print it for a file whose own test failed', async () => {
    const { code, output } = await runRunner([fixture('fails')], marker());
    assert.equal(code, 1, output);
    assert.doesNotMatch(output, /failed outside its tests/);
  });

  await t.test('runs only the files of the categories asked', async () => {
    // The fixtures import nothing but node:test and node:fs: unit files by the rule, none of them api.
    const unit = await runRunner(['--category', 'unit', fixture('passes')], marker());
    assert.equal(unit.code, 0, unit.output);
    assert.match(unit.output, /pass 1/);
    const api = await runRunner(['--category', 'api,browser', fixture('passes')], marker());
    assert.equal(api.code, 1, api.output);
    assert.match(api.output, /No test file to run in api, browser/);
  });

  await t.test('fails on a category or a file that does not exist, rather than running nothing', async () => {
    const category = await runRunner(['--category', 'integration'], marker());
    assert.equal(category.code, 2, category.output);
    assert.match(category.output, /Unknown test category integration/);
    const missing = await runRunner([fixture('passes'), 'test/runner/fixtures/no-such.fixture.ts'], marker());
    assert.equal(missing.code, 1, missing.output);
    assert.match(missing.output, /No test file matches test\/runner\/fixtures\/no-such\.fixture\.ts/);
    assert.match(missing.output, /pass 1/);
  });

  await t.test('runs the test files under a folder named, and only those', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'collecte-runner-folder-'));
    mkdirSync(path.join(folder, 'nested'));
    copyFileSync(path.join(root, fixture('passes')), path.join(folder, 'top.test.ts'));
    copyFileSync(path.join(root, fixture('passes')), path.join(folder, 'nested', 'deep.test.ts'));
    writeFileSync(path.join(folder, 'helper.ts'), "throw new Error('not a test file');\n");
    const { code, output } = await runRunner(['--batch-ms', '0', folder], marker());
    assert.equal(code, 0, output);
    assert.match(output, /tests 2/);
    assert.match(output, /pass 2/);
  });
});
