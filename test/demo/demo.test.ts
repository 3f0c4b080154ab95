import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { DEMO_BUNDLE_PATH, loadDemoDataIfEmpty } from '../../src/demo/load.ts';
import type { Database } from '../../src/db/database.ts';
import { buildDemo, formatBundle } from '../../scripts/build-demo.ts';
import { openingHoursSpecProblem } from '../../src/domain/opening-hours.ts';
import { loadSchedules } from '../../src/domain/schedules.ts';
import { computeCalendar } from '../../src/domain/collection-calendar.ts';
import { parseCalendarDate } from '../../src/kernel/dates.ts';

const require = createRequire(import.meta.url);
const epcis = require('@etalab/decoupage-administratif/data/epci.json') as Array<{
  code: string;
  nom: string;
  membres: Array<{ code: string; nom: string; populationMunicipale: number }>;
}>;
const BREST_METROPOLE = epcis.find((e) => e.code === '242900314')!;
const PAYS_DES_ABERS = epcis.find((e) => e.code === '242900553')!;

/** The day the demo describes: everything it promises must hold then. */
const NOW = '2026-11-22T10:00:00.000Z';
const WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
const silent = pino({ level: 'silent' });

/** The calendar day (YYYY-MM-DD) an instant falls on in Europe/Paris. */
function parisDay(instant: Date): string {
  return instant.toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' });
}

function weekdayOf(day: string): string {
  return WEEKDAYS[(new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7];
}

const dayNumber = (day: string) => parseCalendarDate(day)!;
const addDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function mondayNumber(day: string): number {
  const n = Date.parse(`${day}T00:00:00Z`) / 86_400_000;
  return n - WEEKDAYS.indexOf(weekdayOf(day));
}

describe('demo bundle file', () => {
  it('is what the generator builds (rebuild it with npm run demo:build)', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-demo-'));
    try {
      const rebuilt = formatBundle(await buildDemo(dir));
      const committed = (await fs.readFile(DEMO_BUNDLE_PATH, 'utf8')).trimEnd();
      assert.ok(rebuilt === committed, 'demo/bundle.json is stale: run npm run demo:build');
      // Every media file the bundle names ships with it.
      const bundle = JSON.parse(committed);
      for (const media of bundle.media) await fs.access(path.join(path.dirname(DEMO_BUNDLE_PATH), media.path));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`demo data set (${kind})`, () => {
    let database: Database;
    let mediaDir: string;
    let loaded: number;

    before(async () => {
      database = await createTestDatabase(kind);
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-demo-media-'));
      loaded = await loadDemoDataIfEmpty(database, testConfig({ MEDIA_DIR: mediaDir }), silent);
    });
    after(async () => {
      await database.close();
      await fs.rm(mediaDir, { recursive: true, force: true });
    });

    it('loads into an empty database only', async () => {
      assert.equal(loaded, BREST_METROPOLE.membres.length + PAYS_DES_ABERS.membres.length);
      assert.equal(await loadDemoDataIfEmpty(database, testConfig({ MEDIA_DIR: mediaDir }), silent), 0);
      const { n } = await database.db
        .selectFrom('city')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(n), loaded);
    });

    it('holds two real intercommunalités with all their communes, as etalab lists them', async () => {
      const groups = await database.db.selectFrom('city_group').selectAll().orderBy('name').execute();
      assert.deepEqual(
        groups.map((g) => [g.name, g.type, g.siren, g.chat_enabled]),
        [
          ['Brest Métropole', 'Métropole', '242900314', true],
          ['CC du Pays des Abers', 'Communauté de communes', '242900553', false],
        ],
      );
      for (const [group, epci] of [[groups[0], BREST_METROPOLE], [groups[1], PAYS_DES_ABERS]] as const) {
        const cities = await database.db.selectFrom('city').selectAll().where('city_group_id', '=', group.id).execute();
        const expected = epci.membres.map((m) => [m.nom, m.populationMunicipale]).sort();
        assert.deepEqual(cities.map((c) => [c.name, c.population]).sort(), expected, epci.nom);
        assert.ok(cities.every((c) => c.country === 'France' && c.time_zone === 'Europe/Paris'));
      }
      const inactive = await database.db.selectFrom('city').select('name').where('status', '=', 'NON_ACTIF').execute();
      assert.deepEqual(inactive.map((c) => c.name), ['Loc-Brévalaire']);
    });

    it('gives every city the five bins, the déchèterie and the pharmacy, ADEME materials, 20+ quiz questions and its guidance', async () => {
      const cities = await database.db.selectFrom('city').selectAll().execute();
      const types = await database.db.selectFrom('waste_type').selectAll().execute();
      const details = await database.db.selectFrom('waste_type_detail').selectAll().execute();
      const questions = await database.db.selectFrom('quiz_question').selectAll().execute();
      const points = await database.db.selectFrom('recycling_point').selectAll().execute();
      for (const city of cities) {
        for (const text of [city.out_of_the_bins, city.presentation_of_bins, city.return_of_bins, city.respect_of_calendar, city.holidays]) {
          assert.ok(text && text.length > 40, `${city.name}: guidance text`);
        }
        const own = types.filter((t) => t.city_id === city.id);
        // Textiles are a stream of their own where the commune has a textile bank, déchèterie materials elsewhere.
        const textileBank = points.some((p) => p.city_id === city.id && p.name.startsWith('Borne textile'));
        assert.deepEqual(
          own.map((t) => t.name).sort(),
          [
            'Biodéchets', 'Déchets verts', 'Déchèterie', 'Emballages et papiers', 'Ordures ménagères', 'Pharmacie', 'Verre',
            ...(textileBank ? ['Textiles'] : []),
          ].sort(),
          city.name,
        );
        const materialsOf = (name: string) => details.filter((d) => d.waste_type_id === own.find((t) => t.name === name)!.id);
        const decheterie = materialsOf('Déchèterie');
        assert.ok(decheterie.length >= 20 && decheterie.length <= 35, `${city.name}: ${decheterie.length} déchèterie materials`);
        for (const d of decheterie) assert.match(d.instructions ?? '', /déchèterie/i, d.material);
        for (const material of ['Pile jetable', 'Ampoule', 'Réfrigérateur', 'Canapé', 'Gravats', 'Huile de vidange', 'Pneu']) {
          assert.ok(decheterie.some((d) => d.material === material), `${city.name}: ${material}`);
        }
        assert.equal(decheterie.some((d) => d.material === 'Chaussures'), !textileBank, `${city.name}: textiles at the déchèterie`);
        for (const d of materialsOf('Pharmacie')) assert.match(d.instructions ?? '', /pharmacie/i, d.material);
        assert.ok(materialsOf('Pharmacie').some((d) => d.material === 'Médicaments'));
        for (const t of own) {
          assert.match(t.color ?? '', /^#[0-9A-F]{6}$/);
          assert.match(t.color_light ?? '', /^#[0-9A-F]{6}$/);
          assert.ok(details.filter((d) => d.waste_type_id === t.id).length >= 3, `${city.name} ${t.name}: materials`);
        }
        const quiz = questions.filter((q) => q.city_id === city.id);
        assert.ok(quiz.length >= 20, `${city.name}: ${quiz.length} quiz questions`);
        // Every quiz material is one of the city's own materials, answered by one of its own streams.
        const materials = new Set(details.filter((d) => own.some((t) => t.id === d.waste_type_id)).map((d) => d.material));
        for (const q of quiz) {
          assert.ok(materials.has(q.material), q.material);
          assert.ok(own.some((t) => t.id === q.correct_waste_type_id));
        }
      }
      const glass = details.find((d) => d.material === 'Bouteille en verre (eau, vin)');
      assert.match(glass?.instructions ?? '', /conteneur réservé aux emballages recyclables en verre/);
      assert.ok(!details.some((d) => /<br/.test(d.instructions ?? '')), 'ADEME markup is cleaned');
    });

    it('collects each place weekly and biweekly, every holiday collection made the next day by the group’s rule', async () => {
      const places = await database.db.selectFrom('collection_place').selectAll().execute();
      const days = await database.db.selectFrom('collection_day').selectAll().execute();
      const exceptions = await database.db.selectFrom('collection_exception').selectAll().execute();
      const cities = await database.db.selectFrom('city').select(['id', 'name']).execute();
      const dropOff = await database.db.selectFrom('waste_type').select('id').where('name', 'in', ['Déchèterie', 'Pharmacie', 'Textiles']).execute();
      assert.ok(dropOff.length >= 2 * cities.length);
      const dropOffIds = new Set(dropOff.map((t) => t.id));
      assert.ok(!days.some((d) => dropOffIds.has(d.waste_type_id)), 'the déchèterie, textiles and pharmacy have no collection day');
      assert.ok(!exceptions.some((e) => dropOffIds.has(e.waste_type_id)));
      for (const city of cities) {
        const count = places.filter((p) => p.city_id === city.id).length;
        assert.ok(count >= 1 && count <= 3, `${city.name}: ${count} places`);
      }
      assert.equal(places.filter((p) => p.city_id === cities.find((c) => c.name === 'Brest')!.id).length, 3);

      const holidays = new Map([
        ['2026-12-25', 'Noël'], ['2027-01-01', "Jour de l'an"], ['2027-03-29', 'Lundi de Pâques'],
        ['2027-05-01', 'Fête du Travail'], ['2027-05-06', 'Ascension'], ['2027-05-08', 'Victoire 1945'],
        ['2027-05-17', 'Lundi de Pentecôte'], ['2027-07-14', 'Fête nationale'], ['2027-08-15', 'Assomption'],
        ['2027-11-01', 'Toussaint'], ['2027-11-11', 'Armistice 1918'],
      ]);
      const collects = (placeId: string, wasteTypeId: string, day: string) =>
        days.some((d) => {
          if (d.place_id !== placeId || d.waste_type_id !== wasteTypeId || d.name !== weekdayOf(day)) return false;
          if (!d.biweekly) return true;
          const start = parisDay(d.start_date!);
          return day >= start && (mondayNumber(day) - mondayNumber(start)) % 14 === 0;
        });

      for (const place of places) {
        const own = days.filter((d) => d.place_id === place.id);
        assert.ok(own.some((d) => !d.biweekly), 'a weekly day');
        const biweekly = own.filter((d) => d.biweekly);
        assert.ok(biweekly.length >= 1, 'a biweekly day');
        for (const d of biweekly) {
          const start = parisDay(d.start_date!);
          assert.equal(weekdayOf(start), 'lundi', 'biweekly rules start on a Monday');
          assert.ok(d.start_date! < new Date(NOW), 'in the past');
          // Midnight in Paris: the timestamp stands for the day.
          assert.equal(d.start_date!.toISOString(), new Date(`${start}T00:00:00+01:00`).toISOString());
        }
        const loc = await database.db.selectFrom('attached_location').selectAll().where('place_id', '=', place.id).execute();
        assert.ok(loc.length >= 1);
        for (const l of loc) assert.ok(Math.abs(l.latitude - 48.45) < 0.25 && Math.abs(l.longitude + 4.5) < 0.25, l.name);
      }

      // Holidays are the groups' rule, not a list of exceptions: every collection on one goes to the next day.
      const rules = await database.db.selectFrom('holiday_rule').selectAll().execute();
      const groups = await database.db.selectFrom('city_group').select('id').execute();
      assert.deepEqual(
        rules.map((r) => [r.city_group_id, r.holiday, r.waste_type_id, r.action]).sort(),
        groups.map((g) => [g.id, '*', null, 'NEXT_DAY']).sort(),
      );
      const single = exceptions.filter((e) => e.date_to === null);
      assert.deepEqual(single.map((e) => [e.kind, e.name]).sort(), [
        ['ADD', 'Collecte supplémentaire après les fêtes'],
        ['MOVE', 'Marché de Noël'],
      ]);
      for (const e of single) {
        const day = parisDay(e.date_from);
        assert.equal(collects(e.place_id, e.waste_type_id, day), e.kind === 'MOVE', `${e.name}: a move needs a collection, an addition none`);
      }
      assert.ok(exceptions.every((e) => e.kind !== 'CANCEL' || e.name === 'Pause hivernale'), 'the winter pause is the one cancellation');

      // What the calendar engine makes of it, for every place: no collection on a holiday, each made the next day that
      // is neither a Sunday nor a holiday (one collection when that day already has its own).
      const schedules = await loadSchedules(database.db, { placeIds: places.map((p) => p.id) });
      const range = { from: dayNumber('2026-11-22'), to: dayNumber('2027-11-21') };
      let moved = 0;
      for (const { id, name, schedule } of schedules) {
        const { occurrences } = computeCalendar(schedule, range);
        for (const day of holidays.keys()) {
          assert.ok(!occurrences.some((o) => o.date === day), `${name}: a collection on ${day}`);
          for (const wasteTypeId of new Set(days.filter((d) => d.place_id === id).map((d) => d.waste_type_id))) {
            if (!collects(id, wasteTypeId, day)) continue;
            const paused = exceptions.some(
              (e) => e.place_id === id && e.waste_type_id === wasteTypeId && e.kind === 'CANCEL' &&
                parisDay(e.date_from) <= day && parisDay(e.date_to ?? e.date_from) >= day,
            );
            if (paused) continue;
            let next = addDay(day);
            while (weekdayOf(next) === 'dimanche' || holidays.has(next)) next = addDay(next);
            const made = occurrences.find((o) => o.date === next && o.wasteTypeId === wasteTypeId);
            assert.ok(made, `${name} ${day}: made up on ${next}`);
            if (made.status === 'MOVED') {
              moved += 1;
              assert.equal(made.originalDate, day);
              assert.match(made.note ?? '', /^Reportée du /);
            } else assert.equal(made.status, 'PLANNED', `${name} ${day}: merged into ${next}'s own collection`);
          }
        }
      }
      assert.ok(moved > 50, `${moved} holiday collections moved`);
    });

    it('gives every active place street rules and every place an area holding its attached locations (docs/api.md, from an address to a collection place)', async () => {
      const cities = await database.db.selectFrom('city').selectAll().execute();
      const places = await database.db.selectFrom('collection_place').selectAll().execute();
      const streets = await database.db.selectFrom('place_street').selectAll().execute();
      const locations = await database.db.selectFrom('attached_location').selectAll().execute();
      for (const place of places) {
        const city = cities.find((c) => c.id === place.city_id)!;
        const own = streets.filter((s) => s.place_id === place.id);
        if (city.status !== 'ACTIF') assert.equal(own.length, 0, city.name);
        else if (city.name === 'Brest') assert.ok(own.length >= 8 && own.length <= 12, `${place.name}: ${own.length} streets`);
        else assert.ok(own.length >= 3 && own.length <= 6, `${city.name} ${place.name}: ${own.length} streets`);
        // Every attached location is on one of its place's streets and inside its area's bounding box.
        assert.equal(place.area?.type, 'Polygon', place.name);
        for (const l of locations.filter((x) => x.place_id === place.id)) {
          assert.ok(own.length === 0 || own.some((s) => s.street === l.name), `${place.name}: ${l.name}`);
          assert.ok(l.longitude > place.area_min_lon! && l.longitude < place.area_max_lon!, l.name);
          assert.ok(l.latitude > place.area_min_lat! && l.latitude < place.area_max_lat!, l.name);
        }
      }
      // Brest's Rue Jean Jaurès is split by numbers between two places, Rue Général Paulet by sides.
      const brest = places.filter((p) => p.city_id === cities.find((c) => c.name === 'Brest')!.id);
      const rulesOf = (street: string) =>
        streets.filter((s) => s.street === street && brest.some((p) => p.id === s.place_id)).map((s) => [brest.find((p) => p.id === s.place_id)?.name, s.from_number, s.to_number, s.side]).sort();
      assert.deepEqual(rulesOf('Rue Jean Jaurès'), [
        ['Centre-ville et Recouvrance', 1, 99, 'ALL'],
        ['Lambézellec et Saint-Martin', 100, null, 'ALL'],
      ]);
      assert.deepEqual(rulesOf('Rue Général Paulet'), [
        ['Lambézellec et Saint-Martin', null, null, 'ODD'],
        ['Saint-Marc et Bellevue', null, null, 'EVEN'],
      ]);
    });

    it('lists recycling centres and glass banks with addresses and opening hours', async () => {
      const points = await database.db.selectFrom('recycling_point').selectAll().execute();
      const cities = await database.db.selectFrom('city').select(['id', 'name']).execute();
      for (const city of cities) {
        const own = points.filter((p) => p.city_id === city.id);
        assert.ok(own.some((p) => p.name.startsWith('Déchèterie')), `${city.name}: a recycling centre`);
        assert.ok(own.some((p) => p.name.startsWith("Point d'apport volontaire verre")), `${city.name}: a glass bank`);
        for (const p of own) {
          assert.match(p.address ?? '', /\b29\d{3} /);
          assert.ok((p.opening_hours ?? '').length > 20);
        }
      }
    });

    it('gives every recycling point OSM opening hours, a kind and its materials, and answers who is open now', async (t) => {
      const points = await database.db.selectFrom('recycling_point').selectAll().execute();
      const taken = await database.db.selectFrom('recycling_point_material').selectAll().execute();
      for (const p of points) {
        assert.equal(openingHoursSpecProblem(p.opening_hours_spec ?? ''), null, p.name);
        assert.ok(p.kind === 'CENTRE' || p.kind === 'CONTAINER', p.name);
        assert.ok(taken.some((m) => m.recycling_point_id === p.id), `${p.name} takes something`);
        // Free-text hours say when, not how to sort.
        assert.doesNotMatch(p.opening_hours ?? '', /sacs?|propres|secs/, p.name);
      }
      // Saturday 28 November 2026, 16:00 in Brest: the déchèteries are open until 17:30 (winter), glass banks until 22:00.
      const { app } = await buildTestApp(t, kind, { database, clock: fixedClock(NOW) });
      const brest = (await app.inject('/public/cities')).json().find((c: any) => c.name === 'Brest');
      const res = await app.inject(`/public/cities/${brest.id}/recycling-points?at=2026-11-28T15:00:00.000Z&lat=48.3904&lon=-4.4861`);
      assert.equal(res.statusCode, 200);
      const answer = res.json() as { name: string; kind: string; openNow: boolean; nextChange: string; distanceMeters: number }[];
      assert.equal(answer.length, brest.recyclingPoints.length);
      assert.match(answer[0].name, /Rue de Siam/, 'the glass bank of rue de Siam is the nearest');
      for (const p of answer.filter((p) => p.kind === 'CENTRE')) assert.deepEqual([p.openNow, p.nextChange], [true, '2026-11-28T16:30:00.000Z']);
    });

    it('offers three challenges per city, one requiring another, available in November 2026', async (t) => {
      const { app } = await buildTestApp(t, kind, { database, clock: fixedClock(NOW) });
      const brest = (await app.inject('/public/cities')).json().find((c: any) => c.name === 'Brest');
      const res = await app.inject(`/public/challenges/${brest.id}`);
      assert.equal(res.statusCode, 200);
      const challenges = res.json();
      assert.equal(challenges.length, 3);
      const required = challenges.filter((c: any) => c.requiredChallengeId !== null);
      assert.equal(required.length, 1);
      assert.deepEqual(required[0].requiredChallenge, { id: challenges[0].id, name: challenges[0].name });
      assert.equal(challenges.filter((c: any) => c.endDate === null).length, 1);
      for (const c of challenges) {
        assert.ok(c.badge?.name, 'badge');
        assert.ok(c.series.length >= 2);
        for (const s of c.series) assert.ok(s.quizQuestions.length >= 3);
      }
      const counts = await database.db
        .selectFrom('challenge')
        .select(['city_id', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy('city_id')
        .execute();
      assert.equal(counts.length, loaded);
      assert.ok(counts.every((c) => Number(c.n) === 3));
    });

    it('serves a believable French city at /public/cities', async (t) => {
      const { app } = await buildTestApp(t, kind, { database, clock: fixedClock(NOW) });
      const cities = (await app.inject('/public/cities')).json();
      assert.equal(cities.length, loaded - 1, 'every ACTIF city');
      const brest = cities.find((c: any) => c.name === 'Brest');
      assert.equal(brest.population, BREST_METROPOLE.membres.find((m) => m.nom === 'Brest')!.populationMunicipale);
      assert.equal(brest.cityGroup.name, 'Brest Métropole');
      assert.equal(brest.wasteCollectionPlaces.length, 3);
      assert.ok(brest.wasteCollectionPlaces[0].collectionDays.length >= 4);
      assert.ok(brest.recyclingPoints.length >= 3);
      assert.ok(brest.quizQuestions.length >= 20);

      const groups = (await app.inject('/public/city-groups')).json();
      const abers = groups.find((g: any) => g.siren === '242900553');
      assert.equal(abers._count.cities, PAYS_DES_ABERS.membres.length - 1, 'ACTIF communes only');
    });

    it('publishes MDX blog posts with callouts, and keeps one draft', async () => {
      const posts = await database.db.selectFrom('blog_post').selectAll().execute();
      assert.ok(posts.length >= 4 && posts.length <= 6);
      const published = posts.filter((p) => p.published);
      assert.equal(posts.length - published.length, 1);
      assert.ok(published.every((p) => p.published_at && p.published_at.getUTCFullYear() === 2026));
      assert.ok(published.every((p) => /^:::tip$/m.test(p.content) && /^:::$/m.test(p.content)));
      assert.ok(posts.some((p) => /^:::warning$/m.test(p.content)));
      assert.ok(posts.some((p) => /^## /m.test(p.content) && /^- /m.test(p.content) && /\]\(https:\/\//.test(p.content)));
      assert.equal(new Set(posts.map((p) => p.city_group_id)).size, 2);
    });

    it('has one SITE and one APP with pages in every state, nested menus and media', async () => {
      const sites = await database.db.selectFrom('site').selectAll().orderBy('type', 'desc').execute();
      assert.deepEqual(sites.map((s) => [s.type, s.slug]), [['SITE', 'brest-dechets'], ['APP', 'collecte-brest-app']]);
      assert.equal(typeof sites[1].theme?.primaryColor, 'string');
      const now = new Date(NOW);
      for (const site of sites) {
        const pages = await database.db.selectFrom('page').selectAll().where('site_id', '=', site.id).execute();
        assert.ok(pages.filter((p) => p.published_at && p.published_at <= now).length >= 3, `${site.slug}: published pages`);
        assert.ok(pages.some((p) => p.published_at === null), `${site.slug}: a draft`);
      }
      const sitePages = await database.db.selectFrom('page').selectAll().where('site_id', '=', sites[0].id).execute();
      assert.ok(sitePages.some((p) => p.published_at && p.published_at > now), 'a page published in the future');

      const menus = await database.db.selectFrom('menu').selectAll().execute();
      assert.deepEqual(
        menus.map((m) => `${m.site_id === sites[0].id ? 'SITE' : 'APP'}:${m.location}`).sort(),
        ['APP:main', 'SITE:footer', 'SITE:header'],
      );
      const items = await database.db.selectFrom('menu_item').selectAll().execute();
      assert.deepEqual([...new Set(items.map((i) => i.link_type))].sort(), ['EXTERNAL', 'NONE', 'PAGE']);
      const parents = items.filter((i) => items.some((c) => c.parent_id === i.id));
      assert.ok(parents.length >= 2 && parents.every((p) => p.link_type === 'NONE'));

      const media = await database.db.selectFrom('media').selectAll().orderBy('filename').execute();
      assert.deepEqual(
        media.map((m) => [m.filename, m.mime_type, m.public]),
        [
          ['affiche-encombrants-brouillon.jpg', 'image/jpeg', false],
          ['bacs-pays-des-abers.png', 'image/png', true],
          ['banniere-tri-brest.jpg', 'image/jpeg', true],
          ['guide-du-tri.pdf', 'application/pdf', true],
          ['logo-collecte.png', 'image/png', true],
        ],
      );
      const banner = media.find((m) => m.filename === 'banniere-tri-brest.jpg')!;
      assert.deepEqual([banner.width, banner.height], [1600, 1200]);
      const pdf = media.find((m) => m.mime_type === 'application/pdf')!;
      assert.equal(pdf.width, null);
      assert.ok((await fs.readdir(mediaDir)).length >= media.length, 'files copied to MEDIA_DIR');
    });
  });
}
