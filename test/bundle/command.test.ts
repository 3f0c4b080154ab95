import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.ts';
import { BUNDLE_IDS as ids, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { runCollecte } from '../helpers/server-process.ts';

/** Runs `collecte import FILE` as an operator would, on the embedded database in `dataDir`. */
const collecteImport = (file: string, dataDir: string) =>
  runCollecte(['import', file], { DATA_DIR: dataDir, DATABASE_URL: undefined, MEDIA_DIR: undefined });

// The command works on the configured database; a PostgreSQL run would need a database of its own,
// so the command is exercised on the embedded one (the import itself is tested on both).
for (const kind of testDatabaseKinds().filter((k) => k === 'pglite')) {
  describe(`collecte import (${kind})`, () => {
    it('imports a good bundle, prints the counts and exits 0; a bad one exits 1 with the paths and writes nothing', async (t) => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-cli-'));
      t.after(() => fs.rm(dataDir, { recursive: true, force: true }));

      const bad = validBundle();
      bad.cities![0].wasteCollectionPlaces![0].collectionDays![0].wasteTypeId = 'ffffffff-0000-4000-8000-000000000000';
      bad.media![0].path = '../../etc/passwd';
      const badDir = await writeBundleDir(t, bad);
      const rejected = await collecteImport(badDir.file, dataDir);
      assert.equal(rejected.code, 1, rejected.stderr);
      assert.match(rejected.stderr, /cities\[0\]\.wasteCollectionPlaces\[0\]\.collectionDays\[0\]\.wasteTypeId: /);
      assert.match(rejected.stderr, /media\[0\]\.path: /);
      assert.match(rejected.stderr, /nothing was written/);
      const afterReject = await openDatabase({ databaseUrl: null, dataDir });
      try {
        assert.deepEqual(await afterReject.db.selectFrom('city').select('id').execute(), []);
      } finally {
        await afterReject.close();
      }

      const good = await writeBundleDir(t);
      const imported = await collecteImport(good.file, dataDir);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /cities\s+1/);
      assert.match(imported.stdout, /menuItems\s+5/);

      const database = await openDatabase({ databaseUrl: null, dataDir });
      try {
        const cities = await database.db.selectFrom('city').select('id').execute();
        assert.deepEqual(cities, [{ id: ids.city }]);
      } finally {
        await database.close();
      }
      const stored = await fs.readFile(path.join(dataDir, 'media', ids.media));
      assert.deepEqual(stored, await fs.readFile(path.join(good.dir, 'media/logo.png')));
    });

    it('exits 1 with a clear message for a missing file or a file that is not JSON', async (t) => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-cli-'));
      t.after(() => fs.rm(dataDir, { recursive: true, force: true }));
      const missing = await collecteImport(path.join(dataDir, 'absent.json'), dataDir);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no such file/);
      const notJson = path.join(dataDir, 'bundle.json');
      await fs.writeFile(notJson, '{"cities": [');
      const broken = await collecteImport(notJson, dataDir);
      assert.equal(broken.code, 1);
      assert.match(broken.stderr, /not valid JSON/);
    });
  });
}
