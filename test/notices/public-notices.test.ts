import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { createNotice, noticesApp } from '../helpers/notice-fixtures.ts';

/**
 * `GET /public/cities/:cityId/notices` (docs/api.md, collections that move and service notices): the notices in force now for a city or one of its
 * places, newest first; and a notice that starts or ends shows at once although nothing is written then.
 */

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOW = '2026-11-26T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

for (const kind of testDatabaseKinds()) {
  describe(`public service notices (${kind})`, () => {
    it('answers the notices in force for the city or the place, newest startsAt first', async (t) => {
      const clock = fixedClock(NOW);
      const { app, asManager } = await noticesApp(t, kind, { clock });
      const notice = (title: string, body: Record<string, unknown>) => createNotice(app, asManager, { title, ...body });
      const group = await notice('Toute la métropole', { startsAt: at(-600), severity: 'WARNING', body: 'Grève.' });
      const brest = await notice('Brest seulement', { cityIds: [ids.brest], startsAt: at(-300), endsAt: at(600) });
      const nord = await notice('Secteur Nord', { placeIds: [ids.placeNord], startsAt: at(-200) });
      const centre = await notice('Centre-ville', { cityIds: [ids.brest], placeIds: [ids.placeCentre], startsAt: at(-100) });
      await notice('Élorn seulement', { cityIds: [ids.elorn], startsAt: at(-50) });
      await notice('À venir', { startsAt: at(60) });
      await notice('Terminé', { startsAt: at(-900), endsAt: at(-1) });

      const city = await app.inject(`/public/cities/${ids.brest}/notices`);
      assert.equal(city.statusCode, 200);
      assert.deepEqual(city.json(), [centre, nord, brest, group].map((n) => ({
        id: n.id, title: n.title, body: n.body, severity: n.severity, startsAt: n.startsAt, endsAt: n.endsAt,
      })));
      assert.equal(city.headers['access-control-allow-origin'], '*');
      assert.match(String(city.headers.etag), /^"/);

      const titles = async (url: string) => (await app.inject(url)).json().map((n: { title: string }) => n.title);
      // Without a place, a notice of one of the city's places may be the resident's: shown.
      assert.deepEqual(await titles(`/public/cities/${ids.brest}/notices?placeId=${ids.placeCentre}`), ['Centre-ville', 'Brest seulement', 'Toute la métropole']);
      assert.deepEqual(await titles(`/public/cities/${ids.brest}/notices?placeId=${ids.placeNord.toUpperCase()}`), ['Secteur Nord', 'Brest seulement', 'Toute la métropole']);
      assert.deepEqual(await titles(`/public/cities/${ids.elorn}/notices`), ['Élorn seulement', 'Toute la métropole']);
      // A city of no group has no notices.
      assert.deepEqual(await titles(`/public/cities/${ids.lonely}/notices`), []);
    });

    it('answers 404 for an unknown or inactive city and a place of another city, 400 for a malformed id', async (t) => {
      const { app } = await noticesApp(t, kind);
      const error = async (url: string) => {
        const response = await app.inject(url);
        const body = response.json();
        return [response.statusCode, body.code, body.field];
      };
      assert.deepEqual(await error(`/public/cities/${UNKNOWN}/notices`), [404, 'cityNotFound', null]);
      assert.deepEqual(await error(`/public/cities/${ids.inactive}/notices`), [404, 'cityNotFound', null]);
      assert.deepEqual(await error(`/public/cities/${ids.elorn}/notices?placeId=${ids.placeCentre}`), [404, 'collectionPlaceNotFound', 'placeId']);
      assert.deepEqual(await error(`/public/cities/${ids.brest}/notices?placeId=${UNKNOWN}`), [404, 'collectionPlaceNotFound', 'placeId']);
      assert.deepEqual(await error(`/public/cities/brest/notices`), [400, 'validation', 'cityId']);
      assert.deepEqual(await error(`/public/cities/${ids.brest}/notices?placeId=nord`), [400, 'validation', 'placeId']);
    });

    it('keeps no answer past the next start or end of a notice: one starts and one ends with no write at that time', async (t) => {
      const clock = fixedClock(NOW);
      const { app, asManager } = await noticesApp(t, kind, { clock });
      await createNotice(app, asManager, { title: 'En cours', startsAt: at(-10), endsAt: at(1.5) });
      await createNotice(app, asManager, { title: 'Bientôt', startsAt: at(0.5) });
      const url = `/public/cities/${ids.brest}/notices`;
      const titles = async () => (await app.inject(url)).json().map((n: { title: string }) => n.title);

      const first = await app.inject(url);
      assert.deepEqual(first.json().map((n: { title: string }) => n.title), ['En cours']);
      // Half the time left, by this server and by the client: a copy served from the cache later cannot outlive the start.
      assert.equal(first.headers['cache-control'], 'public, max-age=15', 'kept no longer than until the next notice starts');
      clock.set(at(0.25));
      assert.deepEqual(await titles(), ['En cours'], 'the same answer before then');

      clock.set(at(0.5));
      assert.deepEqual(await titles(), ['Bientôt', 'En cours'], 'the notice that started shows at once');
      clock.set(at(1));
      const third = await app.inject(url);
      assert.equal(third.headers['cache-control'], 'public, max-age=15', 'kept no longer than until the other one ends');
      clock.set(at(1.5));
      assert.deepEqual(await titles(), ['Bientôt'], 'the notice that ended is gone at once');
      const open = await app.inject(url);
      assert.equal(open.headers['cache-control'], 'public, max-age=60', 'nothing to come: the usual minute');
    });
  });
}
