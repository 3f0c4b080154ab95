import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { createPglite, openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { loadConfig } from '../../src/config.ts';
import { INITDB_IMAGE } from '../../src/db/pglite-image.ts';

function temporaryDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-pglite-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function databases(pglite: PGlite): Promise<string[]> {
  return (await pglite.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY datname')).rows.map((r) => r.datname);
}

describe('the embedded database on a new data directory', () => {
  it('starts from the shipped initdb image, with small shared buffers, migrates and keeps its rows across a restart', async (t) => {
    assert.ok(fs.statSync(INITDB_IMAGE).size > 100_000, 'the image ships with the code');
    const dataDir = temporaryDir(t);
    const first = await openDatabase({ databaseUrl: null, dataDir });
    try {
      const applied = await migrateToLatest(first.db);
      assert.equal(applied[0], '0001-initial');
      assert.deepEqual(await migrateToLatest(first.db), []);
      const { rows: groups } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM city_group`.execute(first.db);
      assert.deepEqual(groups, [{ n: 0 }]);
      const { rows } = await sql<{ shared_buffers: string }>`SHOW shared_buffers`.execute(first.db);
      assert.equal(rows[0].shared_buffers, '16MB');
      // initdb makes template0 and template1; the image has them dropped: the directory came from the image.
      const { rows: names } = await sql<{ datname: string }>`SELECT datname FROM pg_database ORDER BY datname`.execute(first.db);
      assert.deepEqual(names.map((r) => r.datname), ['postgres']);
      await sql`CREATE TABLE kept (name text)`.execute(first.db);
      await sql`INSERT INTO kept VALUES ('Kerbrat')`.execute(first.db);
    } finally {
      await first.close();
    }
    const second = await openDatabase({ databaseUrl: null, dataDir, pgliteSharedBuffersMb: 32 });
    try {
      const { rows } = await sql<{ name: string }>`SELECT name FROM kept`.execute(second.db);
      assert.deepEqual(rows, [{ name: 'Kerbrat' }]);
      const { rows: buffers } = await sql<{ shared_buffers: string }>`SHOW shared_buffers`.execute(second.db);
      assert.equal(buffers[0].shared_buffers, '32MB');
    } finally {
      await second.close();
    }
  });

  it('runs initdb when the image cannot start, and says so', async (t) => {
    const pgdata = path.join(temporaryDir(t), 'pgdata');
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    t.after(() => process.off('warning', onWarning));
    // The shipped image as a later PostgreSQL would have made it: its PG_VERSION says 99.
    const tar = zlib.gunzipSync(fs.readFileSync(INITDB_IMAGE));
    let patched = false;
    for (let at = 0; at + 512 <= tar.length && !patched; at += 512) {
      const name = tar.subarray(at, at + 100).toString('latin1').replace(/\0.*$/s, '');
      if (name.replace(/^\/+/, '') !== 'PG_VERSION') continue;
      tar.write('99', at + 512, 'latin1');
      patched = true;
    }
    assert.ok(patched, 'the image holds PG_VERSION');
    const damaged = () => new Blob([zlib.gzipSync(tar)]);
    const pglite = await createPglite(pgdata, { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] }, damaged);
    try {
      assert.ok((await databases(pglite)).includes('template1'), 'initdb made the directory');
    } finally {
      await pglite.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(warnings.some((w) => /initdb image did not start/.test(w) && /npm run pglite:image/.test(w)), warnings.join('\n'));
  });
});

describe('PGLITE_SHARED_BUFFERS_MB', () => {
  it('defaults to 16 and takes a whole number of MiB from 1 to 4096', () => {
    assert.equal(loadConfig({}).pgliteSharedBuffersMb, 16);
    assert.equal(loadConfig({ PGLITE_SHARED_BUFFERS_MB: '64' }).pgliteSharedBuffersMb, 64);
    for (const bad of ['0', '4097', '1.5', 'beaucoup']) {
      assert.throws(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: bad }), /PGLITE_SHARED_BUFFERS_MB/);
    }
  });
});
