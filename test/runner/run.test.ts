import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = (name: string) => `test/runner/fixtures/${name}.fixture.ts`;

/** Runs `test/run.ts` (what `npm test` runs after the type check) on the given files, as npm test does. */
function runRunner(files: string[], marker: string, options: string[] = []): Promise<{ code: number | null; output: string }> {
  // A runner started from inside a test file sees NODE_TEST_CONTEXT and refuses to run files.
  const { NODE_TEST_CONTEXT: _inTest, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['test/run.ts', ...options, ...files], {
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

/** `--durations` with the files as short ones (a tenth of a second each), which the runner puts in one batch. */
function shortFiles(files: string[]): string[] {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'collecte-runner-')), 'durations.json');
  writeFileSync(file, JSON.stringify({ pglite: Object.fromEntries(files.map((name) => [name, 100])) }));
  return ['--durations', file];
}

/** The processes that ran the pid fixtures, by fixture. */
const processes = (marker: string) =>
  Object.fromEntries(readFileSync(marker, 'utf8').trim().split('\n').map((line) => line.split(' ') as [string, string]));

function marker(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'collecte-runner-')), 'marker');
}

test('the test runner', async (t) => {
  await t.test('runs a file again, once, when V8 aborted its process, and passes when the second run does', async () => {
    const file = marker();
    const { code, output } = await runRunner([fixture('dies-once'), fixture('passes')], file);
    assert.equal(readFileSync(file, 'utf8'), 'died once');
    assert.match(output, /V8 aborted the process of test\/runner\/fixtures\/dies-once\.fixture\.ts/);
    assert.match(output, /Check failed: jit_page_/);
    assert.equal(code, 0, output);
  });

  await t.test('fails the run when the same file dies again', async () => {
    const { code, output } = await runRunner([fixture('dies-always')], marker());
    assert.match(output, /running it once more/);
    assert.equal(code, 1, output);
  });

  await t.test('never runs a failing assertion again', async () => {
    const file = marker();
    const { code, output } = await runRunner([fixture('fails'), fixture('passes')], file);
    assert.equal(code, 1, output);
    assert.equal(readFileSync(file, 'utf8'), 'ran\n');
    assert.doesNotMatch(output, /once more/);
  });

  await t.test('never runs again a process that died without V8\'s fatal message', async () => {
    const file = marker();
    const { code, output } = await runRunner([fixture('aborts')], file);
    assert.equal(code, 1, output);
    assert.equal(readFileSync(file, 'utf8'), 'ran\n');
    assert.doesNotMatch(output, /once more/);
  });

  await t.test('runs short files in one process, each reported under its own file; one that does not load fails alone', async () => {
    const files = [fixture('pid-one'), fixture('broken'), fixture('pid-two')];
    const file = marker();
    const { code, output } = await runRunner(files, file, shortFiles(files));
    assert.equal(code, 1, output);
    const ran = processes(file);
    assert.ok(ran.one && ran.one === ran.two, `one process for both: ${JSON.stringify(ran)}`);
    assert.match(output, /test\/runner\/fixtures\/broken\.fixture\.ts loads/);
    assert.match(output, /this fixture does not load/);
    assert.match(output, /pass 2/);
    assert.match(output, /fail 1/);

    const alone = marker();
    const apart = await runRunner([fixture('pid-one'), fixture('pid-two')], alone, [...shortFiles(files), '--batch-ms', '0']);
    assert.equal(apart.code, 0, apart.output);
    assert.notEqual(processes(alone).one, processes(alone).two, '--batch-ms 0: a process each');
  });

  await t.test('runs a batch again, once, when V8 aborted its process', async () => {
    const files = [fixture('dies-once'), fixture('passes')];
    const file = marker();
    const { code, output } = await runRunner(files, file, shortFiles(files));
    assert.equal(readFileSync(file, 'utf8'), 'died once');
    assert.match(output, /V8 aborted the process of \S*batch-01\.test\.mjs/);
    assert.match(output, /runs test\/runner\/fixtures\/dies-once\.fixture\.ts, test\/runner\/fixtures\/passes\.fixture\.ts/);
    assert.equal(code, 0, output);
  });

  await t.test('passes a run with nothing but passing files', async () => {
    const file = marker();
    const { code, output } = await runRunner([fixture('passes')], file);
    assert.equal(code, 0, output);
    assert.equal(existsSync(file), false);
    assert.match(output, /pass 1/);
  });
});
