import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, DatabaseLockedError } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { freePort } from '../helpers/net.ts';
import { startServer, waitReady } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GROUP = '10000000-0000-4000-8000-0000000000aa';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-life-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('embedded database and process lifecycle', () => {
  it('npm start serves the real demo communes and stops cleanly on SIGTERM', async (t) => {
    const dataDir = tempDir(t);
    const port = await freePort();
    const proc = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    t.after(() => proc.kill('SIGKILL'));
    await waitReady(port, { proc, output: () => out, exited });

    const cities = (await (await fetch(`http://127.0.0.1:${port}/public/cities`)).json()) as { name: string }[];
    const names = cities.map((c: { name: string }) => c.name);
    assert.ok(names.includes('Brest') && names.includes('Plouzané'), names.join(', '));
    const groups = (await (await fetch(`http://127.0.0.1:${port}/public/city-groups`)).json()) as { siren: string }[];
    assert.deepEqual(groups.map((g: { siren: string }) => g.siren).sort(), ['242900314', '242900553']);

    // SIGTERM to npm reaches the server (the script execs node): it stops and releases the database.
    proc.kill('SIGTERM');
    assert.equal(await exited, 0, out);
    for (let i = 0; i < 50 && fs.existsSync(path.join(dataDir, 'collecte.lock')); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.existsSync(path.join(dataDir, 'collecte.lock')), false, 'the server released the database');
  });

  it('keeps its data across a restart of the embedded database', async (t) => {
    const dataDir = tempDir(t);
    const first = await openDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(first.db);
    await first.db
      .insertInto('city_group')
      .values({ id: GROUP, name: 'Persistante', type: 'Métropole', code: 'P', siren: '123456789', chat_enabled: false })
      .execute();
    await first.close();

    const second = await openDatabase({ databaseUrl: null, dataDir });
    t.after(() => second.close());
    assert.deepEqual(await migrateToLatest(second.db), [], 'the schema is already there');
    const row = await second.db.selectFrom('city_group').select('name').where('id', '=', GROUP).executeTakeFirst();
    assert.equal(row?.name, 'Persistante');
  });

  it('refuses a second opener of the same data directory while the first holds it', async (t) => {
    const dataDir = tempDir(t);
    const first = await openDatabase({ databaseUrl: null, dataDir });
    t.after(() => first.close());
    await assert.rejects(openDatabase({ databaseUrl: null, dataDir }), DatabaseLockedError);

    // Another process is refused too, with a message naming the way out, and a non-zero exit.
    const child = startServer(dataDir, await freePort());
    assert.equal(await child.exited, 1);
    assert.match(child.output(), /already used by process \d+/);
    assert.match(child.output(), /DATABASE_URL/);
  });

  it('takes over a lock left by a dead process', async (t) => {
    const dataDir = tempDir(t);
    fs.writeFileSync(path.join(dataDir, 'collecte.lock'), '999999999');
    const database = await openDatabase({ databaseUrl: null, dataDir });
    t.after(() => database.close());
    assert.equal(JSON.parse(fs.readFileSync(path.join(dataDir, 'collecte.lock'), 'utf8')).pid, process.pid);
  });

  it('takes over a lock whose pid is alive but belongs to another process start (a container restarted after kill -9)', async (t) => {
    // In a container the restarted server is PID 1 again: the pid of the killed owner is alive, and is ours.
    for (const stale of [
      String(process.pid),
      JSON.stringify({ pid: process.pid, bootId: null, startTime: '1' }),
      JSON.stringify({ pid: process.ppid, bootId: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), startTime: '1' }),
    ]) {
      const dataDir = tempDir(t);
      fs.writeFileSync(path.join(dataDir, 'collecte.lock'), stale);
      const database = await openDatabase({ databaseUrl: null, dataDir });
      assert.equal(JSON.parse(fs.readFileSync(path.join(dataDir, 'collecte.lock'), 'utf8')).pid, process.pid, stale);
      await database.close();
    }
  });

  it('still refuses when the recorded owner is a live process with that very start (checked through a real child)', async (t) => {
    const dataDir = tempDir(t);
    const port = await freePort();
    const child = startServer(dataDir, port);
    t.after(() => child.proc.kill('SIGKILL'));
    await waitReady(port, child);
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'collecte.lock'), 'utf8'));
    assert.equal(lock.pid, child.proc.pid);
    assert.ok(lock.startTime, 'the start time is recorded on Linux');
    await assert.rejects(openDatabase({ databaseUrl: null, dataDir }), DatabaseLockedError);
    // Killed with -9, the lock stays behind with the dead owner's identity, and is taken over.
    child.proc.kill('SIGKILL');
    await child.exited;
    const database = await openDatabase({ databaseUrl: null, dataDir });
    await database.close();
  });

  it('finishes a request in flight on SIGTERM, closes the database and exits 0', async (t) => {
    const dataDir = tempDir(t);
    const port = await freePort();
    const child = startServer(dataDir, port);
    t.after(() => child.proc.kill('SIGKILL'));
    await waitReady(port, child);

    // A request whose body is still arriving when SIGTERM comes.
    const body = JSON.stringify({ deviceId: 'device-sigterm-1', challengeId: GROUP, score: 50 });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /public/challenges/complete HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` + body.slice(0, 10),
        );
        setTimeout(() => {
          child.proc.kill('SIGTERM');
          setTimeout(() => socket.write(body.slice(10)), 500);
        }, 300);
      });
      let raw = '';
      socket.on('data', (d) => (raw += d));
      socket.on('end', () => resolve({ status: Number(raw.split(' ')[1]), text: raw }));
      socket.on('error', reject);
    });
    const { status, text } = await response;
    assert.equal(status, 404, text); // the challenge does not exist: a real answer, not a dropped connection
    assert.match(text, /"statusCode":404/);
    assert.equal(await child.exited, 0, child.output());
    assert.equal(fs.existsSync(path.join(dataDir, 'collecte.lock')), false, 'the lock is released');
  });
});
