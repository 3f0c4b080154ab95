// A city group's frequently asked questions travel with the group in the import bundle (docs/bundle.md): exported in
// the group's order, imported into a fresh database with the same ids, text, positions and dates (residents then read
// them the same), and back into their own database without a change. A bundle that leaves the list out leaves the
// stored questions alone; [] deletes them; a bad entry is refused at its path and nothing is written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { importBundle } from '../../src/bundle/import.ts';
import { BundleValidationError } from '../../src/bundle/faults.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import type { DB } from '../../src/db/types.ts';
import type { Database } from '../../src/db/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { authEnv, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { BUNDLE_IDS as ids, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');

async function importInto(t: { after: (fn: () => Promise<void>) => void }, database: Database, bundle: Bundle) {
  const dir = await writeBundleDir(t, bundle);
  return importBundle(database, bundle, { baseDir: dir.dir, mediaDir: dir.mediaDir, now: NOW });
}

const stored = (db: Kysely<DB>) => db.selectFrom('faq').selectAll().orderBy('id').execute();

function withFaq(list: unknown[] | null | undefined): Bundle {
  const bundle = validBundle();
  if (list !== undefined) bundle.cityGroups![0].faq = list as never;
  return bundle;
}

const entry = (n: number, fields: Record<string, unknown> = {}) => ({
  id: `f0000000-0000-4000-8000-00000000000${n}`,
  question: `Question ${n} ?`,
  answer: `Réponse ${n}.`,
  ...fields,
});

for (const kind of testDatabaseKinds()) {
  describe(`frequently asked questions in the import bundle (${kind})`, () => {
    it('export → import into an empty database: the same questions, read by residents in the same order; back into its own changes nothing', async (t) => {
      const source = await buildTestApp(t, kind, { env: authEnv });
      await importInto(t, source.database, validBundle());
      await createAccount(source.database.db, { email: 'cms@val-test.fr', permissions: ['CMS'], cityGroupIds: [ids.cityGroup] });
      await createAccount(source.database.db, { email: 'root@collecte.fr', superAdmin: true, permissions: [] });
      const asAgent = await loginHeaders(source.app, 'cms@val-test.fr');
      const create = async (question: string, answer: string, position?: number) => {
        const res = await source.app.inject({
          method: 'POST',
          url: `/admin/city-groups/${ids.cityGroup}/faq`,
          headers: asAgent,
          payload: { question, answer, ...(position === undefined ? {} : { position }) },
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json() as { id: string; question: string; answer: string; position: number; createdAt: string; updatedAt: string };
      };
      const late = await create('Où jeter mes piles ?', 'Dans les bacs des magasins ou à la déchèterie.', 5);
      const first = await create('Quand sortir mon bac ?', 'La veille au soir, après 19\u00a0h.', 1);
      const unordered = await create('Mon bac est cassé', 'Signalez-le dans l’application\u00a0: il sera remplacé.');

      const res = await source.app.inject({ method: 'GET', url: `/admin/export?media=false&cityGroupId=${ids.cityGroup}`, headers: await loginHeaders(source.app, 'root@collecte.fr') });
      assert.equal(res.statusCode, 200, res.body);
      const bundle = res.json() as Bundle;
      assert.deepEqual(
        bundle.cityGroups![0].faq,
        [unordered, first, late].map(({ id, question, answer, position, createdAt, updatedAt }) => ({ id, question, answer, position, createdAt, updatedAt })),
        'every field, in the group’s order',
      );

      const target = await buildTestApp(t, kind, { env: authEnv });
      const summary = await importInto(t, target.database, bundle);
      assert.equal(summary.counts.faq, 3);
      assert.deepEqual(await stored(target.database.db), await stored(source.database.db));
      const cityId = bundle.cities![0].id;
      const read = async (app: typeof source.app) => {
        const answer = await app.inject({ method: 'GET', url: `/public/cities/${cityId}/faq` });
        assert.equal(answer.statusCode, 200, answer.body);
        return answer.json();
      };
      assert.deepEqual(await read(target.app), await read(source.app));
      assert.deepEqual((await read(target.app)).map((e: { question: string }) => e.question), [unordered.question, first.question, late.question]);

      const again = await importInto(t, source.database, bundle);
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);
    });

    it('a group that leaves its list out keeps its questions; a list replaces them ([] deletes them all)', async (t) => {
      const { database } = await buildTestApp(t, kind);
      const db = database.db;
      const createdAt = '2026-01-01T00:00:00.000Z';
      const dated = entry(2, { position: 3, createdAt, updatedAt: '2026-01-02T00:00:00.000Z' });
      const imported = await importInto(t, database, withFaq([entry(1), dated]));
      assert.equal(imported.counts.faq, 2);
      const rows = await stored(db);
      assert.deepEqual(rows.map((r) => [r.id, r.city_group_id, r.question, r.answer, r.position]), [
        [entry(1).id, ids.cityGroup, 'Question 1 ?', 'Réponse 1.', 0],
        [dated.id, ids.cityGroup, 'Question 2 ?', 'Réponse 2.', 3],
      ]);
      assert.equal(rows[0].created_at.toISOString(), NOW.toISOString(), 'dates left out are the import’s');
      assert.equal(rows[1].created_at.toISOString(), createdAt, 'dates given are kept');

      for (const leftOut of [undefined, null]) {
        const summary = await importInto(t, database, withFaq(leftOut));
        assert.equal(summary.deletedRows, 0, `faq ${leftOut}`);
        assert.deepEqual(await stored(db), rows, 'left alone');
      }
      const replaced = await importInto(t, database, withFaq([entry(1, { answer: 'Autre réponse.' })]));
      assert.equal(replaced.deletedRows, 1);
      assert.deepEqual((await stored(db)).map((r) => [r.id, r.answer]), [[entry(1).id, 'Autre réponse.']]);
      await importInto(t, database, withFaq([]));
      assert.deepEqual(await stored(db), []);
    });

    it('refuses a blank question, an answer too long and a position past 9999, at their paths; nothing written', async (t) => {
      const { database } = await buildTestApp(t, kind);
      await importInto(t, database, withFaq([entry(1)]));
      const before = await stored(database.db);
      let faults: { path: string; message: string }[] = [];
      try {
        await importInto(t, database, withFaq([entry(1, { question: '   ' }), entry(2, { answer: 'x'.repeat(3001) }), entry(3, { position: 10_000 })]));
        assert.fail('imported');
      } catch (err) {
        assert.ok(err instanceof BundleValidationError, String(err));
        faults = err.faults;
      }
      assert.deepEqual(faults.slice(0, 2), [
        { path: 'cityGroups[0].faq[0].question', message: 'doit contenir de 1 à 300 caractères, pas seulement des espaces' },
        { path: 'cityGroups[0].faq[1].answer', message: 'doit contenir de 1 à 3000 caractères, pas seulement des espaces' },
      ]);
      assert.equal(faults.length, 3);
      assert.equal(faults[2].path, 'cityGroups[0].faq[2].position');
      assert.match(faults[2].message, /9\s?999/);
      assert.deepEqual(await stored(database.db), before, 'nothing written');
    });
  });
}
