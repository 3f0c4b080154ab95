import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { importBundle, importBundleFile } from '../../src/bundle/import.ts';
import { BundleValidationError } from '../../src/bundle/faults.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import { BUNDLE_IDS as ids, BUNDLE_MEDIA_SIZE, bundlePng, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { countBundleTables, dumpBundleTables, listDir } from '../helpers/bundle-tables.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { createHash } from 'node:crypto';

const FIRST = new Date('2026-02-01T00:00:00.000Z');
const LATER = new Date('2026-03-01T00:00:00.000Z');

for (const kind of testDatabaseKinds()) {
  describe(`import bundle (${kind})`, () => {
    async function setup(t: { after: (fn: () => Promise<void>) => void }) {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const written = await writeBundleDir(t);
      const run = (bundle: Bundle, now: Date) =>
        importBundle(database, bundle, { baseDir: written.dir, mediaDir: written.mediaDir, now });
      return { database, db: database.db, written, run };
    }

    it('imports a valid bundle: every row, the media file and a new data version', async (t) => {
      const { db, written, run } = await setup(t);
      const before = await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow();
      const summary = await run(validBundle(), FIRST);
      assert.deepEqual(summary.counts, {
        cityGroups: 1, cannedReplies: 0, faq: 0, holidayRules: 0, cities: 1, wasteTypes: 2, wasteTypeDetails: 2, collectionPlaces: 1, collectionDays: 2,
        collectionExceptions: 1, attachedLocations: 1, streetRules: 0, recyclingPoints: 1, recyclingPointMaterials: 1, quizQuestions: 2, challenges: 2, badges: 1,
        series: 2, blogPosts: 1, sites: 2, pages: 3, menus: 2, menuItems: 5, media: 1,
      });
      const counts = await countBundleTables(db);
      assert.equal(counts.serie_question, 2);
      assert.equal(counts.menu_item, 5);

      const city = await db.selectFrom('city').selectAll().where('id', '=', ids.city).executeTakeFirstOrThrow();
      assert.equal(city.name, 'Testville');
      assert.equal(city.time_zone, 'Europe/Paris');
      assert.equal(city.city_group_id, ids.cityGroup);
      assert.equal(city.created_at.toISOString(), FIRST.toISOString());
      assert.equal(city.updated_at.toISOString(), FIRST.toISOString());

      const group = await db.selectFrom('city_group').selectAll().executeTakeFirstOrThrow();
      assert.equal(group.chat_enabled, true);

      const day = await db.selectFrom('collection_day').selectAll().where('id', '=', ids.dayPackaging).executeTakeFirstOrThrow();
      assert.equal(day.name, 'jeudi');
      assert.equal(day.biweekly, true);
      assert.equal(day.start_date?.toISOString(), '2026-01-05T00:00:00.000Z');

      const expert = await db.selectFrom('challenge').selectAll().where('id', '=', ids.challengeExpert).executeTakeFirstOrThrow();
      assert.equal(expert.required_challenge_id, ids.challengeBeginner);
      assert.equal(expert.enabled, true);

      const post = await db.selectFrom('blog_post').selectAll().executeTakeFirstOrThrow();
      assert.equal(post.created_at.toISOString(), '2026-01-10T08:00:00.000Z', 'createdAt is taken from the bundle');
      assert.match(post.content, /:::tip/);

      const app = await db.selectFrom('site').selectAll().where('id', '=', ids.app).executeTakeFirstOrThrow();
      assert.deepEqual(app.theme, { primaryColor: '#0E7490' });
      const site = await db.selectFrom('site').selectAll().where('id', '=', ids.site).executeTakeFirstOrThrow();
      assert.deepEqual(site.settings, { locale: 'fr-FR' });

      const child = await db.selectFrom('menu_item').selectAll().where('id', '=', ids.itemExternal).executeTakeFirstOrThrow();
      assert.equal(child.parent_id, ids.itemMore);
      assert.equal(child.external_url, 'https://www.ademe.fr');
      assert.equal(child.link_type, 'EXTERNAL');

      const png = await bundlePng();
      const media = await db.selectFrom('media').selectAll().executeTakeFirstOrThrow();
      assert.equal(media.mime_type, 'image/png');
      assert.equal(media.size, png.length);
      assert.equal(media.width, BUNDLE_MEDIA_SIZE.width);
      assert.equal(media.height, BUNDLE_MEDIA_SIZE.height);
      assert.equal(media.sha256, createHash('sha256').update(png).digest('hex'));
      assert.equal(media.public, true);
      assert.equal(media.city_group_id, ids.cityGroup, 'its CMS agents are those of its group');
      assert.deepEqual(await fs.readFile(path.join(written.mediaDir, ids.media)), png);
      assert.deepEqual(await listDir(written.mediaDir), [ids.media], 'no temporary file is left');

      assert.equal(summary.dataVersion, before.version + 1);
      const version = await db.selectFrom('data_version').selectAll().executeTakeFirstOrThrow();
      assert.equal(version.version, before.version + 1);
      assert.equal(version.changed_at.toISOString(), FIRST.toISOString());
    });

    it('is idempotent: importing the same bundle again changes nothing, not even updated_at', async (t) => {
      const { db, written, run } = await setup(t);
      await run(validBundle(), FIRST);
      const dump = await dumpBundleTables(db);
      const stat = await fs.stat(path.join(written.mediaDir, ids.media));
      const again = await run(validBundle(), LATER);
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);
      assert.deepEqual(await dumpBundleTables(db), dump);
      assert.equal((await fs.stat(path.join(written.mediaDir, ids.media))).mtimeMs, stat.mtimeMs, 'the media file is left alone');
    });

    it('updates what changed and removes the children the bundle no longer lists', async (t) => {
      const { db, run } = await setup(t);
      await run(validBundle(), FIRST);
      const groupBefore = await db.selectFrom('city_group').selectAll().executeTakeFirstOrThrow();

      const bundle = validBundle();
      const city = bundle.cities![0];
      city.name = 'Testville-sur-Mer';
      city.wasteTypes![0].details = [];
      city.wasteCollectionPlaces![0].collectionDays!.pop();
      city.wasteCollectionPlaces![0].exceptions = [];
      city.challenges![0].series![0].quizQuestionIds = [ids.quizBottle];
      bundle.sites![0].menus![0].items![1].children = [];
      bundle.sites![0].pages!.pop();
      bundle.blogPosts![0].title = 'Trier ses emballages';
      bundle.blogPosts![0].updatedAt = '2026-02-15T00:00:00.000Z';
      const summary = await run(bundle, LATER);
      assert.ok(summary.changedRows > 0);

      const row = await db.selectFrom('city').selectAll().executeTakeFirstOrThrow();
      assert.equal(row.name, 'Testville-sur-Mer');
      assert.equal(row.created_at.toISOString(), FIRST.toISOString(), 'created_at stays');
      assert.equal(row.updated_at.toISOString(), LATER.toISOString(), 'updated_at moves with the content');
      const group = await db.selectFrom('city_group').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual(group, groupBefore, 'an unchanged row keeps its updated_at');
      const post = await db.selectFrom('blog_post').selectAll().executeTakeFirstOrThrow();
      assert.equal(post.title, 'Trier ses emballages');
      assert.equal(post.updated_at.toISOString(), '2026-02-15T00:00:00.000Z', 'updatedAt from the bundle wins');

      const counts = await countBundleTables(db);
      assert.equal(counts.waste_type_detail, 1);
      assert.equal(counts.collection_day, 1);
      assert.equal(counts.collection_exception, 0);
      assert.equal(counts.serie_question, 1);
      assert.equal(counts.menu_item, 3);
      assert.equal(counts.page, 2);
      assert.equal(counts.waste_type, 2, 'the rest stays');
      const gone = await db.selectFrom('page').select('id').where('id', '=', ids.pageDraft).execute();
      assert.deepEqual(gone, []);
    });

    it('disables, rather than deletes, a removed challenge that citizens completed', async (t) => {
      const { db, run } = await setup(t);
      await run(validBundle(), FIRST);
      await db
        .insertInto('challenge_completion')
        .values({ id: 'c0000000-0000-4000-8000-000000000001', device_id: 'device-1234', challenge_id: ids.challengeBeginner, score: 80, completed_at: FIRST })
        .execute();
      const bundle = validBundle();
      bundle.cities![0].challenges = [];
      const summary = await run(bundle, LATER);
      assert.equal(summary.disabledChallenges, 1);
      const challenges = await db.selectFrom('challenge').select(['id', 'enabled']).execute();
      assert.deepEqual(challenges, [{ id: ids.challengeBeginner, enabled: false }]);
      assert.equal((await countBundleTables(db)).challenge_completion, 1, 'the progress survives');
      // Listing it again enables it again.
      await run(validBundle(), LATER);
      const back = await db.selectFrom('challenge').select(['id', 'enabled']).orderBy('id').execute();
      assert.deepEqual(back, [
        { id: ids.challengeBeginner, enabled: true },
        { id: ids.challengeExpert, enabled: true },
      ]);
    });

    it('writes nothing when the database refuses a row inside the transaction', async (t) => {
      const { db, written, run } = await setup(t);
      await run(validBundle(), FIRST);
      const dump = await dumpBundleTables(db);
      // A fault only the database sees, raised by the last table written, after every other statement ran.
      await sql`CREATE FUNCTION refuse_media() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'media refused'; END $$`.execute(db);
      await sql`CREATE TRIGGER refuse_media BEFORE INSERT OR UPDATE ON media FOR EACH ROW EXECUTE FUNCTION refuse_media()`.execute(db);
      const bundle = validBundle();
      bundle.cities![0].name = 'Changée';
      bundle.cities![0].wasteTypes![0].details = [];
      bundle.cityGroups!.push({ id: '10000000-0000-4000-8000-0000000000bb', name: 'G2', type: 'Métropole', code: 'G2', siren: '1' });
      bundle.media![0].alt = 'Nouveau texte';
      // A new media id, so that a file would be left in the media folder if the import did not clean up.
      bundle.media!.push({ id: 'a0000000-0000-4000-8000-000000000002', path: 'media/logo.png', public: true });
      await assert.rejects(run(bundle, LATER), /media refused/);
      assert.deepEqual(await dumpBundleTables(db), dump);
      assert.deepEqual(await listDir(written.mediaDir), [ids.media], 'staged media files are removed');
    });

    it('imports a bundle of thousands of cities in batches', async (t) => {
      const { db, run } = await setup(t);
      const hex = (i: number, width = 12) => i.toString(16).padStart(width, '0');
      const bundle: Bundle = {
        cities: Array.from({ length: 2500 }, (_, i) => ({
          id: `21000000-0000-4000-8000-${hex(i)}`,
          name: `Ville ${i}`,
          country: 'France',
          status: 'ACTIF' as const,
          wasteTypes: [{ id: `31000000-0000-4000-8000-${hex(i)}`, name: 'Verre', color: '#22C55E' }],
          wasteCollectionPlaces: [
            {
              id: `41000000-0000-4000-8000-${hex(i)}`,
              name: 'Bourg',
              collectionDays: [{ id: `42000000-0000-4000-8000-${hex(i)}`, name: 'lundi' as const, wasteTypeId: `31000000-0000-4000-8000-${hex(i)}` }],
            },
          ],
        })),
      };
      const summary = await run(bundle, FIRST);
      assert.equal(summary.counts.cities, 2500);
      const counts = await countBundleTables(db);
      assert.equal(counts.city, 2500);
      assert.equal(counts.collection_day, 2500);
      const again = await run(bundle, LATER);
      assert.equal(again.changedRows, 0);
    });

    it('refreshes the planner statistics of the tables an import changed by more than autovacuum would let pass', async (t) => {
      const { db, run } = await setup(t);
      const hex = (i: number) => i.toString(16).padStart(12, '0');
      // 120 details of the household waste type, each its own material; `renamed` of them then called 'Verre'.
      const withDetails = (renamed: number): Bundle => {
        const bundle = validBundle();
        bundle.cities![0].wasteTypes![0].details = Array.from({ length: 120 }, (_, i) => ({
          id: `51000000-0000-4000-8000-${hex(i)}`,
          material: i < renamed ? 'Verre' : `Matière ${i}`,
        }));
        return bundle;
      };
      const statistics = async (table: string) =>
        (
          await sql<{ n: string; common: string | null }>`
            SELECT (SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = ${table})::text AS n,
                   (SELECT most_common_vals::text FROM pg_stats WHERE schemaname = current_schema() AND tablename = ${table} AND attname = 'material') AS common`.execute(db)
        ).rows[0];

      await run(withDetails(0), FIRST);
      const first = await statistics('waste_type_detail');
      assert.ok(Number(first.n) > 0, 'the 120 new details are analyzed');
      assert.equal(first.common, null, 'every material is its own: no most common value');
      assert.equal((await statistics('city')).n, '0', 'one new city is not worth an ANALYZE');

      // Ten renamed rows: under 50 plus a tenth of 120, the statistics stay those of the first import.
      await run(withDetails(10), LATER);
      assert.equal((await statistics('waste_type_detail')).common, null);

      // A hundred: now the statistics see 'Verre' as the most common material.
      await run(withDetails(100), new Date('2026-04-01T00:00:00.000Z'));
      assert.match((await statistics('waste_type_detail')).common ?? '', /Verre/);
    });

    it('imports from a file, media paths relative to it', async (t) => {
      const { database, written } = await setup(t);
      const summary = await importBundleFile(database, written.file, { mediaDir: written.mediaDir, now: FIRST });
      assert.equal(summary.counts.media, 1);
      await fs.writeFile(written.file, '{ not json');
      await assert.rejects(importBundleFile(database, written.file, { mediaDir: written.mediaDir, now: FIRST }), BundleValidationError);
      await assert.rejects(importBundleFile(database, written.file, { mediaDir: written.mediaDir, now: FIRST }), (err: BundleValidationError) => {
        assert.equal(err.faults.length, 1);
        assert.equal(err.faults[0].path, '');
        assert.match(err.faults[0].message, /^le fichier n’est pas un JSON valide \(.+\)$/);
        return true;
      });
    });
  });
}
