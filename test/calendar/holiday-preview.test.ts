// POST /admin/city-groups/:cityGroupId/holiday-preview (docs/api.md, exceptions and holiday rules): what a group's
// holiday rules, stored or proposed, do to its places' collections on each public holiday of the next twelve months,
// computed by the calendar engine; the proposal checked with the bundle's rule (400 naming the rule), the group
// within the agent's reach.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { fixedClock } from '../helpers/app.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { authApp, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const PREVIEW = `/admin/city-groups/${ids.group}/holiday-preview`;
/** Thursday 15 October 2026, noon in Brest: the year looked at runs to 14 October 2027. */
const NOW = '2026-10-15T10:00:00.000Z';

interface Effect {
  wasteTypeId: string;
  wasteTypeName: string;
  cityId: string;
  cityName: string;
  action: string;
  places: number;
  byException: number;
  movedTo: string | null;
}
interface Preview {
  from: string;
  to: string;
  holidays: { date: string; holiday: string; name: string; cities: { id: string; name: string }[]; effects: Effect[] }[];
}

/** The fixtures' agents, with the server's clock on NOW (tokens are judged by it). */
async function setup(t: Parameters<typeof authApp>[0], kind: Parameters<typeof authApp>[1]) {
  const { app, database } = await authApp(t, kind, { clock: fixedClock(NOW) });
  const db = database.db;
  const now = new Date(NOW);
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] }, now);
  await createAccount(db, { email: 'manager@brest.fr', name: 'Gaëlle Manager', permissions: ['CITIES'] }, now);
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', permissions: ['CITIES'], cityGroupIds: [ids.emptyGroup] }, now);
  await createAccount(db, { email: 'editor@brest.fr', name: 'Éditrice', permissions: ['BLOG_POSTS'] }, now);
  const [asRoot, asManager, asOutsider, asEditor] = await Promise.all(
    ['root@collecte.fr', 'manager@brest.fr', 'outsider@aber.fr', 'editor@brest.fr'].map((email) => loginHeaders(app, email)),
  );
  return { app, db, asRoot, asManager, asOutsider, asEditor };
}

async function preview(app: FastifyInstance, headers: Record<string, string>, body: object = {}, url = PREVIEW): Promise<Preview> {
  const res = await inject(app, headers, 'POST', url, body);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Preview;
}

/** Each holiday as `date key: waste type action places/byException → movedTo`, for short assertions. */
const brief = (p: Preview) =>
  Object.fromEntries(
    p.holidays.map((h) => [
      `${h.date} ${h.holiday}`,
      h.effects.map((e) => `${e.wasteTypeName} (${e.cityName}) ${e.action} ${e.places}/${e.byException}${e.movedTo ? ` → ${e.movedTo}` : ''}`),
    ]),
  );

/** Writes the group's rules as an agent would (PATCH with If-Match). */
async function storeRules(app: FastifyInstance, headers: Record<string, string>, holidayRules: object[]) {
  const current = await inject(app, headers, 'GET', `/admin/city-groups/${ids.group}`);
  const res = await inject(app, { ...headers, 'if-match': String(current.headers.etag) }, 'PATCH', `/admin/city-groups/${ids.group}`, { holidayRules });
  assert.equal(res.statusCode, 200, res.body);
}

for (const kind of testDatabaseKinds()) {
  describe(`POST /admin/city-groups/:cityGroupId/holiday-preview (${kind})`, () => {
    it('answers the next twelve months of holidays with what the stored rules, then proposed ones, do; nothing stored', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      // No rule: every collection kept. Brest's centre collects household waste on Mondays and Fridays (an exception
      // cancels 25 December and 1 January), packaging every other Wednesday; its north sector glass on Sundays.
      const none = await preview(app, asManager);
      assert.deepEqual([none.from, none.to], ['2026-10-15', '2027-10-14']);
      assert.deepEqual(brief(none), {
        '2026-11-01 toussaint': ['Verre (Brest) KEEP 1/0'],
        '2026-11-11 armistice': ['Emballages (Brest) KEEP 1/0'],
        '2026-12-25 noel': ['Ordures ménagères (Brest) KEEP 1/1'],
        '2027-01-01 jour-de-l-an': ['Ordures ménagères (Brest) KEEP 1/1'],
        '2027-03-29 lundi-de-paques': ['Ordures ménagères (Brest) KEEP 1/0'],
        '2027-05-01 fete-du-travail': [],
        '2027-05-06 ascension': [],
        '2027-05-08 victoire-1945': [],
        '2027-05-17 lundi-de-pentecote': ['Ordures ménagères (Brest) KEEP 1/0'],
        '2027-07-14 fete-nationale': [],
        '2027-08-15 assomption': ['Verre (Brest) KEEP 1/0'],
      });
      const toussaint = none.holidays[0];
      assert.equal(toussaint.name, 'Toussaint');
      assert.deepEqual(toussaint.cities.map((c) => c.name), ['Arcadie', 'Brest', 'Élorn'], 'every city of the group, by name');
      assert.deepEqual(toussaint.effects[0], {
        wasteTypeId: ids.wasteVerre, wasteTypeName: 'Verre', cityId: ids.brest, cityName: 'Brest', action: 'KEEP', places: 1, byException: 0, movedTo: null,
      });

      // Stored rules: every holiday to the next day, packaging shifting the week on Armistice day.
      await storeRules(app, asManager, [
        { holiday: '*', wasteTypeId: null, action: 'NEXT_DAY' },
        { holiday: 'armistice', wasteTypeId: ids.wasteEmb, action: 'SHIFT_WEEK' },
      ]);
      const stored = brief(await preview(app, asManager));
      assert.deepEqual(stored['2026-11-01 toussaint'], ['Verre (Brest) NEXT_DAY 1/0 → 2026-11-02']);
      assert.deepEqual(stored['2026-11-11 armistice'], ['Emballages (Brest) SHIFT_WEEK 1/0 → 2026-11-12']);
      assert.deepEqual(stored['2026-12-25 noel'], ['Ordures ménagères (Brest) NEXT_DAY 1/1'], 'the exception wins: nothing moved by the rule');
      assert.deepEqual(stored['2027-03-29 lundi-de-paques'], ['Ordures ménagères (Brest) NEXT_DAY 1/0 → 2027-03-30']);
      // The same days as the public calendar, from the same engine.
      const calendar = await app.inject(`/public/cities/${ids.brest}/places/${ids.placeNord}/collections?from=2026-10-30&to=2026-11-03`);
      assert.deepEqual(calendar.json().map((o: { date: string }) => o.date), ['2026-11-02']);

      // Proposed rules replace the stored ones for the preview only (a waste type id in capitals is the same one).
      const before = await Promise.all((['holiday_rule', 'audit_entry', 'data_version'] as const).map((table) => db.selectFrom(table).selectAll().execute()));
      const proposed = brief(await preview(app, asManager, { holidayRules: [{ holiday: 'toussaint', wasteTypeId: ids.wasteVerre.toUpperCase(), action: 'CANCEL' }] }));
      assert.deepEqual(proposed['2026-11-01 toussaint'], ['Verre (Brest) CANCEL 1/0']);
      assert.deepEqual(proposed['2026-11-11 armistice'], ['Emballages (Brest) KEEP 1/0']);
      assert.deepEqual(proposed['2027-03-29 lundi-de-paques'], ['Ordures ménagères (Brest) KEEP 1/0']);
      assert.deepEqual(brief(await preview(app, asManager, { holidayRules: [] }))['2026-11-01 toussaint'], ['Verre (Brest) KEEP 1/0'], 'an empty list is no rule');
      const after = await Promise.all((['holiday_rule', 'audit_entry', 'data_version'] as const).map((table) => db.selectFrom(table).selectAll().execute()));
      assert.deepEqual(after, before, 'nothing stored');
      assert.deepEqual(brief(await preview(app, asManager)), stored, 'the stored rules again without a proposal');
    });

    it('lists Alsace-Moselle’s two holidays only when a city of the group follows that calendar, naming it', async (t) => {
      const { app, asManager } = await setup(t, kind);
      const keys = (p: Preview) => p.holidays.map((h) => h.holiday);
      assert.ok(!keys(await preview(app, asManager)).some((k) => k === 'vendredi-saint' || k === 'saint-etienne'));

      const city = await inject(app, asManager, 'GET', `/admin/cities/${ids.brest}`);
      const patched = await inject(app, { ...asManager, 'if-match': String(city.headers.etag) }, 'PATCH', `/admin/cities/${ids.brest}`, {
        holidayCalendar: 'FR-ALSACE-MOSELLE',
      });
      assert.equal(patched.statusCode, 200, patched.body);
      const alsace = await preview(app, asManager, { holidayRules: [{ holiday: '*', wasteTypeId: null, action: 'NEXT_DAY' }] });
      const saintEtienne = alsace.holidays.find((h) => h.holiday === 'saint-etienne')!;
      assert.deepEqual([saintEtienne.date, saintEtienne.name, saintEtienne.cities], ['2026-12-26', 'Saint-Étienne', [{ id: ids.brest, name: 'Brest' }]]);
      assert.deepEqual(saintEtienne.effects, []);
      const goodFriday = alsace.holidays.find((h) => h.holiday === 'vendredi-saint')!;
      assert.deepEqual([goodFriday.date, goodFriday.cities.map((c) => c.name)], ['2027-03-26', ['Brest']]);
      assert.deepEqual(brief({ ...alsace, holidays: [goodFriday] }), { '2027-03-26 vendredi-saint': ['Ordures ménagères (Brest) NEXT_DAY 1/0 → 2027-03-27'] });
      assert.deepEqual(alsace.holidays.find((h) => h.holiday === 'noel')!.cities.map((c) => c.name), ['Arcadie', 'Brest', 'Élorn'], 'a national one for every city');
    });

    it('refuses a proposal the bundle’s rule refuses, naming the rule; 404 outside the agent’s groups, 403 without CITIES', async (t) => {
      const { app, asRoot, asManager, asOutsider, asEditor } = await setup(t, kind);
      const refused = async (holidayRules: object[]) => {
        const res = await inject(app, asManager, 'POST', PREVIEW, { holidayRules });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'validation');
        return res.json() as { field: string; message: string };
      };
      const twice = await refused([
        { holiday: 'noel', wasteTypeId: null, action: 'CANCEL' },
        { holiday: 'toussaint', wasteTypeId: ids.wasteOm, action: 'KEEP' },
        { holiday: 'noel', wasteTypeId: null, action: 'NEXT_DAY' },
      ]);
      assert.equal(twice.field, 'holidayRules[2]');
      assert.match(twice.message, /holidayRules\[0\]/);
      assert.equal((await refused([{ holiday: '*', wasteTypeId: null, action: 'KEEP' }, { holiday: '*', wasteTypeId: UNKNOWN, action: 'KEEP' }])).field, 'holidayRules[1].wasteTypeId');
      assert.match((await refused([{ holiday: 'paques', wasteTypeId: null, action: 'KEEP' }])).field, /^holidayRules\[0\]/);
      assert.match((await refused([{ holiday: 'noel', wasteTypeId: null, action: 'LATER' }])).field, /^holidayRules\[0\]/);

      const notFound = { statusCode: 404, error: 'Not Found', message: 'Groupe de villes introuvable', code: 'cityGroupNotFound', field: null };
      const other = await inject(app, asOutsider, 'POST', PREVIEW, {});
      assert.deepEqual([other.statusCode, other.json()], [404, notFound]);
      const unknown = await inject(app, asManager, 'POST', `/admin/city-groups/${UNKNOWN}/holiday-preview`, {});
      assert.deepEqual([unknown.statusCode, unknown.json()], [404, notFound]);
      const editor = await inject(app, asEditor, 'POST', PREVIEW, {});
      assert.equal(editor.statusCode, 403, editor.body);
      assert.equal((await app.inject({ method: 'POST', url: PREVIEW, payload: {} })).statusCode, 401);

      // The outsider's own group, without cities: the national holidays, observed by no city, touching nothing.
      const empty = await preview(app, asOutsider, {}, `/admin/city-groups/${ids.emptyGroup}/holiday-preview`);
      assert.equal(empty.holidays.length, 11);
      assert.ok(empty.holidays.every((h) => h.cities.length === 0 && h.effects.length === 0));
      // A super admin reaches every group.
      assert.equal((await preview(app, asRoot)).holidays.length, 11);
    });

    it('sums a group of fifty cities per city and waste type, the same name in each city kept apart', async (t) => {
      const { app, db, asOutsider } = await setup(t, kind);
      const n = (i: number, prefix: string) => `${prefix}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      const cities = Array.from({ length: 50 }, (_, i) => i);
      await db.insertInto('city').values(cities.map((i) => ({
        id: n(i, '21000000'), name: `Commune ${i + 1}`, country: 'France', population: null, status: 'ACTIF' as const, city_group_id: ids.emptyGroup,
      }))).execute();
      await db.insertInto('waste_type').values(cities.map((i) => ({
        id: n(i, '31000000'), city_id: n(i, '21000000'), name: 'Ordures ménagères', color: '#424242', color_light: null, description: null, instructions: null, icon: null, image_url: null,
      }))).execute();
      // Two places per city collected on Mondays, and one on Tuesdays.
      await db.insertInto('collection_place').values(cities.flatMap((i) => [0, 1, 2].map((p) => ({ id: n(i * 3 + p, '41000000'), city_id: n(i, '21000000'), name: `Secteur ${p + 1}` })))).execute();
      await db.insertInto('collection_day').values(cities.flatMap((i) => [0, 1, 2].map((p) => ({
        id: n(i * 3 + p, '51000000'), place_id: n(i * 3 + p, '41000000'), name: p < 2 ? 'lundi' : 'mardi', waste_type_id: n(i, '31000000'), description: null, biweekly: false, start_date: null,
      })))).execute();

      const easter = (await preview(app, asOutsider, { holidayRules: [{ holiday: 'lundi-de-paques', wasteTypeId: null, action: 'PREVIOUS_DAY' }] }, `/admin/city-groups/${ids.emptyGroup}/holiday-preview`))
        .holidays.find((h) => h.holiday === 'lundi-de-paques')!;
      assert.equal(easter.cities.length, 50);
      assert.equal(easter.effects.length, 50, 'one effect per city');
      assert.deepEqual(easter.effects.slice(0, 2).map((e) => `${e.cityName} ${e.wasteTypeName} ${e.action} ${e.places} ${e.movedTo}`), [
        'Commune 1 Ordures ménagères PREVIOUS_DAY 2 2027-03-27',
        'Commune 2 Ordures ménagères PREVIOUS_DAY 2 2027-03-27',
      ], 'to the Saturday before, two places each; by city name in French order');
      assert.equal(new Set(easter.effects.map((e) => e.wasteTypeId)).size, 50);
      assert.ok(easter.effects.every((e) => e.cityId === n(Number(e.cityName.split(' ')[1]) - 1, '21000000')), 'each waste type with its own city');
    });
  });
}
