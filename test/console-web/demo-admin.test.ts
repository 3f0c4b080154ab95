// `npm start` on an empty embedded database: the demo data and a demo administrator whose random password is printed
// once with the console's address; never again on the next start, never on a PostgreSQL server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/net.ts';
import { startNpmStart, waitReady, type Child } from '../helpers/server-process.ts';
import { loadConfig } from '../../src/config.ts';
import { DEMO_ADMIN_EMAIL, demoConsoleSecret } from '../../src/demo/admin.ts';

const ANNOUNCE = /Console : (http:\/\/localhost:(\d+)\/console) — compte demo@collecte\.local, mot de passe (\S+) /;

/** `npm start` as a newcomer runs it: the embedded database in `dataDir`. */
const npmStart = (dataDir: string, port: number): Child => startNpmStart(port, { DATABASE_URL: '', DATA_DIR: dataDir });

async function stop(child: Child) {
  child.proc.kill('SIGTERM');
  await child.exited;
}

const logIn = (port: number, password: string) =>
  fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ADMIN_EMAIL, password }),
  });

describe('demo administrator', { timeout: 180_000 }, () => {
  it('is created once with a random password printed with the console’s address, and works across restarts', async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-demo-admin-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const first = npmStart(dataDir, port);
    t.after(() => first.proc.kill('SIGKILL'));
    await waitReady(port, first);
    // The announce follows the listen: wait for the line rather than race it.
    for (let i = 0; i < 100 && !ANNOUNCE.test(first.output()); i++) await new Promise((r) => setTimeout(r, 50));
    const found = ANNOUNCE.exec(first.output());
    assert.ok(found, `the log names the console and the password:\n${first.output()}`);
    const [, url, announcedPort, password] = found;
    assert.equal(Number(announcedPort), port);
    assert.ok(password.length >= 20, 'a long random password');
    assert.equal(first.output().split(password).length - 1, 1, 'the password is printed once');
    const page = await fetch(url.replace('localhost', '127.0.0.1'));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<div id="console">/);

    const login = await logIn(port, password);
    assert.equal(login.status, 200);
    const session = (await login.json()) as { accessToken: string; user: { superAdmin: boolean } };
    assert.equal(session.user.superAdmin, true);
    const groups = await fetch(`http://127.0.0.1:${port}/admin/city-groups`, { headers: { authorization: `Bearer ${session.accessToken}` } });
    assert.equal(groups.status, 200);
    // The signing key is kept in DATA_DIR, readable by its owner only.
    assert.equal(fs.statSync(path.join(dataDir, 'console-secret')).mode & 0o077, 0);
    await stop(first);

    // The second start: the data is there, so no demo load and no new account nor password; the old one still works.
    const second = npmStart(dataDir, port);
    t.after(() => second.proc.kill('SIGKILL'));
    await waitReady(port, second);
    assert.doesNotMatch(second.output(), /mot de passe/);
    assert.doesNotMatch(second.output(), /demo data loaded/);
    assert.equal((await logIn(port, password)).status, 200);
    await stop(second);

    // Two newcomers never share a password.
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-demo-admin-'));
    t.after(() => fs.rmSync(otherDir, { recursive: true, force: true }));
    const other = npmStart(otherDir, port);
    t.after(() => other.proc.kill('SIGKILL'));
    await waitReady(port, other);
    for (let i = 0; i < 100 && !ANNOUNCE.test(other.output()); i++) await new Promise((r) => setTimeout(r, 50));
    assert.notEqual(ANNOUNCE.exec(other.output())?.[3], password);
    await stop(other);
  });

  it('never makes a signing key (nor so an account) for a PostgreSQL server or when the operator set one', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-demo-admin-'));
    try {
      assert.equal(demoConsoleSecret(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://127.0.0.1/x' })), null);
      assert.equal(demoConsoleSecret(loadConfig({ DATA_DIR: dataDir, CONSOLE_JWT_SECRET: 'an-operator-secret-of-forty-bytes-or-so-0000' })), null);
      assert.deepEqual(fs.readdirSync(dataDir), []);
      const made = demoConsoleSecret(loadConfig({ DATA_DIR: dataDir }));
      assert.ok(made && made.length >= 32);
      assert.equal(demoConsoleSecret(loadConfig({ DATA_DIR: dataDir })), made, 'read back, not made again');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
