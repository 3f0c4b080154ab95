import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildTestApp } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { insertMedia, makeMediaDir } from '../helpers/cms-fixtures.ts';
import { countingDatabase } from '../helpers/query-counter.ts';

const PDF = Buffer.from('%PDF-1.4\n% Guide du tri\n' + 'y'.repeat(5000) + '\n%%EOF\n');

for (const kind of testDatabaseKinds()) {
  describe(`media kept in memory (${kind})`, () => {
    it('serves a repeated download without a query or a file read, and follows a data change', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      const { counter, database } = countingDatabase(base);
      const dir = makeMediaDir(t);
      const { app } = await buildTestApp(t, kind, { database, env: { MEDIA_DIR: dir } });
      const pdf = await insertMedia(base.db, dir, { bytes: PDF, mimeType: 'application/pdf', filename: 'guide.pdf' });
      const url = `/public/cms/media/${pdf.id}/file`;

      const first = await app.inject(url);
      assert.equal(first.statusCode, 200);
      assert.deepEqual(first.rawPayload, PDF);
      // The file may now go away from disk: its bytes are kept, and no query is needed.
      fs.renameSync(path.join(dir, pdf.id), path.join(dir, `${pdf.id}.moved`));
      counter.queries = 0;
      const second = await app.inject(url);
      assert.equal(counter.queries, 0);
      assert.deepEqual(second.rawPayload, PDF);
      const range = await app.inject({ url, headers: { range: 'bytes=0-7' } });
      assert.equal(range.statusCode, 206);
      assert.equal(range.body, '%PDF-1.4');

      // A data change (the media made private) is seen at once.
      await base.db.updateTable('media').set({ public: false }).where('id', '=', pdf.id).execute();
      await app.dataChanged();
      assert.equal((await app.inject(url)).statusCode, 404);
    });
  });
}
