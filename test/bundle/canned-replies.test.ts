// a city group's canned replies (the console's « réponses types ») travel with the group in the
// import bundle: exported, imported into a fresh database with the same ids and text, and back into their own
// database without a change. A bundle that leaves the list out leaves the stored replies alone; [] deletes them.
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

const OTHER_GROUP = '10000000-0000-4000-8000-0000000000bb';
const NOW = new Date('2026-11-22T10:00:00.000Z');

async function importInto(t: { after: (fn: () => Promise<void>) => void }, database: Database, bundle: Bundle) {
  const dir = await writeBundleDir(t, bundle);
  return importBundle(database, bundle, { baseDir: dir.dir, mediaDir: dir.mediaDir, now: NOW });
}

/** The valid bundle plus a second group, whose replies an export of the first must not carry. */
function twoGroups(): Bundle {
  const bundle = validBundle();
  bundle.cityGroups!.push({ id: OTHER_GROUP, name: 'Autre groupe', type: 'Métropole', code: 'AG', siren: '200000098' });
  return bundle;
}

const storedReplies = (db: Kysely<DB>) => db.selectFrom('canned_reply').selectAll().orderBy('id').execute();

for (const kind of testDatabaseKinds()) {
  describe(`canned replies in the import bundle (${kind})`, () => {
    it('export → import into an empty database gives the same replies (ids, text, dates); back into its own changes nothing', async (t) => {
      const source = await buildTestApp(t, kind, { env: authEnv });
      await importInto(t, source.database, twoGroups());
      await createAccount(source.database.db, { email: 'agent@val-test.fr', permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [ids.cityGroup, OTHER_GROUP] });
      await createAccount(source.database.db, { email: 'root@collecte.fr', superAdmin: true, permissions: [] });
      const asAgent = await loginHeaders(source.app, 'agent@val-test.fr');
      const asRoot = await loginHeaders(source.app, 'root@collecte.fr');
      const create = async (groupId: string, title: string, content: string) => {
        const res = await source.app.inject({ method: 'POST', url: `/admin/city-groups/${groupId}/canned-replies`, headers: asAgent, payload: { title, content } });
        assert.equal(res.statusCode, 201, res.body);
        return res.json() as { id: string; cityGroupId: string; title: string; content: string; createdAt: string; updatedAt: string };
      };
      const replies = [
        await create(ids.cityGroup, 'Horaires de la déchèterie', 'La déchèterie est ouverte du lundi au samedi, de 9 h à 18 h.'),
        await create(ids.cityGroup, 'Bac abîmé', 'Signalez-le en mairie\u00a0: un agent passera le remplacer sous 10 jours.\nMerci\u00a0!'),
      ];
      await create(OTHER_GROUP, 'Autre', 'Une réponse d’un autre groupe.');

      // The whole export holds every group's replies; the group's export, its own only.
      const whole = await source.app.inject({ method: 'GET', url: '/admin/export?media=false', headers: asRoot });
      assert.equal(whole.statusCode, 200, whole.body);
      const res = await source.app.inject({ method: 'GET', url: `/admin/export?media=false&cityGroupId=${ids.cityGroup}`, headers: asRoot });
      assert.equal(res.statusCode, 200, res.body);
      const bundle = res.json() as Bundle;
      assert.deepEqual(bundle.cityGroups!.map((g) => g.id), [ids.cityGroup]);
      const expected = replies
        .map(({ id, title, content, createdAt, updatedAt }) => ({ id, title, content, createdAt, updatedAt }))
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      assert.deepEqual(bundle.cityGroups![0].cannedReplies, expected, 'every field, in id order');
      assert.deepEqual(
        (whole.json() as Bundle).cityGroups!.map((g) => [g.id, g.cannedReplies!.length]).sort(),
        [[ids.cityGroup, 2], [OTHER_GROUP, 1]].sort(),
      );

      // Into an empty database: the same rows, and the console lists them.
      const target = await buildTestApp(t, kind, { env: authEnv });
      const summary = await importInto(t, target.database, bundle);
      assert.equal(summary.counts.cannedReplies, 2);
      const sourceRows = (await storedReplies(source.database.db)).filter((r) => r.city_group_id === ids.cityGroup);
      assert.deepEqual(await storedReplies(target.database.db), sourceRows);
      await createAccount(target.database.db, { email: 'agent@val-test.fr', permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [ids.cityGroup] });
      const listed = await target.app.inject({
        method: 'GET',
        url: `/admin/city-groups/${ids.cityGroup}/canned-replies`,
        headers: await loginHeaders(target.app, 'agent@val-test.fr'),
      });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(
        listed.json().data.map((r: { id: string; title: string; content: string }) => [r.id, r.title, r.content]).sort(),
        replies.map((r) => [r.id, r.title, r.content]).sort(),
      );

      // Back into its own database (the whole export): nothing moves, the other group's reply included.
      const again = await importInto(t, source.database, whole.json());
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);
      assert.equal((await storedReplies(source.database.db)).length, 3);
    });

    it('an agent exports the replies only when it may read them in the console; without them the import leaves them alone', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: authEnv });
      await importInto(t, database, twoGroups());
      const reply = { id: 'c0000000-0000-4000-8000-000000000001', city_group_id: ids.cityGroup, title: 'Bonjour', content: 'Bonjour !' };
      await database.db.insertInto('canned_reply').values(reply).execute();
      await createAccount(database.db, { email: 'cities@val-test.fr', permissions: ['CITIES'], cityGroupIds: [ids.cityGroup] });
      await createAccount(database.db, { email: 'both@val-test.fr', permissions: ['CITIES', 'CHAT_CONVERSATIONS'], cityGroupIds: [ids.cityGroup] });
      const exportAs = async (email: string) => {
        const res = await app.inject({ method: 'GET', url: '/admin/export?media=false', headers: await loginHeaders(app, email) });
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as Bundle;
      };

      const withReplies = await exportAs('both@val-test.fr');
      assert.deepEqual(withReplies.cityGroups![0].cannedReplies!.map((r) => [r.id, r.title, r.content]), [[reply.id, reply.title, reply.content]]);
      const withoutReplies = await exportAs('cities@val-test.fr');
      assert.deepEqual(withoutReplies.cityGroups!.map((g) => g.id), [ids.cityGroup]);
      assert.equal('cannedReplies' in withoutReplies.cityGroups![0], false, 'left out, not []');
      const again = await importInto(t, database, withoutReplies);
      assert.equal(again.deletedRows, 0);
      assert.deepEqual((await storedReplies(database.db)).map((r) => r.id), [reply.id], 'the stored replies stay');
    });

    it('a group that leaves its list out keeps its replies; a list replaces them ([] deletes them all)', async (t) => {
      const { database } = await buildTestApp(t, kind);
      const db = database.db;
      const first = { id: 'c0000000-0000-4000-8000-000000000001', title: 'Bonjour', content: 'Bonjour, que puis-je pour vous ?' };
      const second = { id: 'c0000000-0000-4000-8000-000000000002', title: 'Au revoir', content: 'Bonne journée !', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };
      const withReplies = (list: unknown[] | null | undefined) => {
        const bundle = validBundle();
        if (list !== undefined) bundle.cityGroups![0].cannedReplies = list as never;
        return bundle;
      };

      const imported = await importInto(t, database, withReplies([first, second]));
      assert.equal(imported.counts.cannedReplies, 2);
      const rows = await storedReplies(db);
      assert.deepEqual(rows.map((r) => [r.id, r.city_group_id, r.title, r.content]), [
        [first.id, ids.cityGroup, first.title, first.content],
        [second.id, ids.cityGroup, second.title, second.content],
      ]);
      assert.equal(rows[0].created_at.toISOString(), NOW.toISOString(), 'dates left out are the import’s');
      assert.equal(rows[1].created_at.toISOString(), second.createdAt, 'dates given are kept');
      assert.equal(rows[1].updated_at.toISOString(), second.updatedAt);

      for (const leftOut of [undefined, null]) {
        const summary = await importInto(t, database, withReplies(leftOut));
        assert.equal(summary.deletedRows, 0, `cannedReplies ${leftOut}`);
        assert.deepEqual(await storedReplies(db), rows, 'left alone');
      }
      const replaced = await importInto(t, database, withReplies([{ ...first, content: 'Bonjour !' }]));
      assert.equal(replaced.deletedRows, 1);
      assert.deepEqual((await storedReplies(db)).map((r) => [r.id, r.content]), [[first.id, 'Bonjour !']]);
      await importInto(t, database, withReplies([]));
      assert.deepEqual(await storedReplies(db), []);
    });

    it('refuses a blank title, a duplicate id and a reply of another group, at the reply’s path; nothing written', async (t) => {
      const { database } = await buildTestApp(t, kind);
      const reply = { id: 'c0000000-0000-4000-8000-000000000001', title: 'Bonjour', content: 'Bonjour !' };
      const faultsOf = async (bundle: Bundle) => {
        try {
          await importInto(t, database, bundle);
        } catch (err) {
          assert.ok(err instanceof BundleValidationError, String(err));
          return err.faults;
        }
        assert.fail('imported');
      };

      const blank = twoGroups();
      blank.cityGroups![0].cannedReplies = [{ ...reply, title: '   ' }, { ...reply, id: 'c0000000-0000-4000-8000-000000000002', content: 'x'.repeat(2001) }];
      assert.deepEqual(await faultsOf(blank), [
        { path: 'cityGroups[0].cannedReplies[0].title', message: 'doit contenir de 1 à 100 caractères, pas seulement des espaces' },
        { path: 'cityGroups[0].cannedReplies[1].content', message: 'doit contenir de 1 à 2000 caractères, pas seulement des espaces' },
      ]);

      const twice = twoGroups();
      twice.cityGroups![0].cannedReplies = [reply];
      twice.cityGroups![1].cannedReplies = [reply];
      assert.deepEqual(await faultsOf(twice), [
        { path: 'cityGroups[1].cannedReplies[0].id', message: `l’identifiant ${reply.id} est déjà utilisé par cityGroups[0].cannedReplies[0]` },
      ]);
      assert.deepEqual(await storedReplies(database.db), [], 'nothing written');

      const stored = twoGroups();
      stored.cityGroups![0].cannedReplies = [reply];
      await importInto(t, database, stored);
      const moved = twoGroups();
      moved.cityGroups![1].cannedReplies = [reply];
      assert.deepEqual(await faultsOf(moved), [
        {
          path: 'cityGroups[1].cannedReplies[0].id',
          message: `l’identifiant ${reply.id} appartient déjà à le groupe de villes ${ids.cityGroup} dans la base ; un élément ne change pas de parent`,
        },
      ]);
    });
  });
}
