// docs/api.md, collections that move and service notices through the admin API: an exception's kind (CANCEL, MOVE with movedTo, ADD), a city group's
// holiday rules and a city's holiday calendar, each checked with the bundle's rules (400 naming the field, nothing
// written) and followed at once by the public calendar.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

/** Friday 4 December 2026, midnight in Brest: the centre's household waste is collected on Fridays. */
const FRIDAY = '2026-12-03T23:00:00.000Z';
const SATURDAY = '2026-12-04T23:00:00.000Z';
const EXCEPTIONS = `/admin/places/${ids.placeCentre}/exceptions`;

interface Occurrence {
  date: string;
  wasteTypeId: string;
  status: string;
  originalDate: string | null;
  note: string | null;
}

async function householdWaste(app: FastifyInstance, from: string, to: string, include = ''): Promise<Occurrence[]> {
  const res = await app.inject(`/public/cities/${ids.brest}/places/${ids.placeCentre}/collections?from=${from}&to=${to}${include}`);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as Occurrence[]).filter((o) => o.wasteTypeId === ids.wasteOm);
}

const brief = (list: Occurrence[]) => list.map((o) => [o.date, o.status, o.originalDate]);

for (const kind of testDatabaseKinds()) {
  describe(`/admin collections that move (${kind})`, () => {
    it('moves a collection to another day and adds one, the public calendar following each write', async (t) => {
      const { app, asManager } = await setup(t, kind);
      assert.deepEqual(brief(await householdWaste(app, '2026-12-04', '2026-12-06')), [['2026-12-04', 'PLANNED', null]]);

      const moved = await inject(app, asManager, 'POST', EXCEPTIONS, {
        kind: 'MOVE', dateFrom: FRIDAY, movedTo: SATURDAY, wasteTypeId: ids.wasteOm, name: 'Marché de Noël', description: null,
      });
      assert.equal(moved.statusCode, 201, moved.body);
      assert.equal(moved.json().kind, 'MOVE');
      assert.equal(moved.json().movedTo, SATURDAY);
      assert.equal(moved.json().dateTo, null);
      const list = await householdWaste(app, '2026-12-04', '2026-12-06');
      assert.deepEqual(brief(list), [['2026-12-05', 'MOVED', '2026-12-04']]);
      assert.match(list[0].note!, /Marché de Noël/);

      // Turned into an addition on Sunday: the Friday collection is back, the Sunday one added.
      const etag = String(moved.headers.etag);
      const added = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/exceptions/${moved.json().id}`, {
        kind: 'ADD', dateFrom: '2026-12-05T23:00:00.000Z', movedTo: null,
      });
      assert.equal(added.statusCode, 200, added.body);
      assert.deepEqual({ kind: added.json().kind, movedTo: added.json().movedTo }, { kind: 'ADD', movedTo: null });
      assert.deepEqual(brief(await householdWaste(app, '2026-12-04', '2026-12-06')), [
        ['2026-12-04', 'PLANNED', null],
        ['2026-12-06', 'ADDED', null],
      ]);

      // The public city keeps the seed's exception shape.
      const publicPlace = (await app.inject(`/public/cities/${ids.brest}`)).json().wasteCollectionPlaces.find((p: { id: string }) => p.id === ids.placeCentre);
      const exception = publicPlace.exceptions.find((e: { id: string }) => e.id === moved.json().id);
      assert.deepEqual(Object.keys(exception).sort(), ['dateFrom', 'dateTo', 'description', 'id', 'name', 'wasteTypeId']);
    });

    it('refuses what a kind does not allow, naming the field in French, writing nothing', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const before = await db.selectFrom('collection_exception').selectAll().orderBy('id').execute();
      const cases: [string, object, string][] = [
        ['a MOVE without its day', { kind: 'MOVE', dateFrom: FRIDAY }, 'movedTo'],
        ['a MOVE to the same day', { kind: 'MOVE', dateFrom: FRIDAY, movedTo: '2026-12-04T10:00:00.000Z' }, 'movedTo'],
        ['a MOVE more than 14 days away', { kind: 'MOVE', dateFrom: FRIDAY, movedTo: '2026-12-18T23:00:00.000Z' }, 'movedTo'],
        ['a MOVE more than 14 days before', { kind: 'MOVE', dateFrom: FRIDAY, movedTo: '2026-11-18T23:00:00.000Z' }, 'movedTo'],
        ['a MOVE over several days', { kind: 'MOVE', dateFrom: FRIDAY, dateTo: SATURDAY, movedTo: SATURDAY }, 'dateTo'],
        ['an ADD over several days', { kind: 'ADD', dateFrom: FRIDAY, dateTo: SATURDAY }, 'dateTo'],
        ['a CANCEL with a day to move to', { kind: 'CANCEL', dateFrom: FRIDAY, movedTo: SATURDAY }, 'movedTo'],
        ['an ADD with a day to move to', { kind: 'ADD', dateFrom: FRIDAY, movedTo: SATURDAY }, 'movedTo'],
        ['an unknown kind', { kind: 'REPORT', dateFrom: FRIDAY }, 'kind'],
        ['a day that is no timestamp', { kind: 'MOVE', dateFrom: FRIDAY, movedTo: 'samedi' }, 'movedTo'],
      ];
      for (const [what, body, field] of cases) {
        const res = await inject(app, asManager, 'POST', EXCEPTIONS, { wasteTypeId: ids.wasteOm, ...body });
        assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
        assert.equal(res.json().code, 'validation', what);
        assert.equal(res.json().field, field, what);
        assert.match(res.json().message, new RegExp(field), what);
      }
      // 14 days is the limit, both ways.
      const farthest = await inject(app, asManager, 'POST', EXCEPTIONS, {
        kind: 'MOVE', dateFrom: FRIDAY, movedTo: '2026-12-17T23:00:00.000Z', wasteTypeId: ids.wasteOm,
      });
      assert.equal(farthest.statusCode, 201, farthest.body);
      // A PATCH that makes a stored CANCEL a MOVE without saying where to: 400, the record unchanged.
      const [stored] = before;
      const read = await inject(app, asManager, 'GET', `/admin/exceptions/${stored.id}`);
      const patch = await inject(app, { ...asManager, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/exceptions/${stored.id}`, { kind: 'MOVE' });
      assert.equal(patch.statusCode, 400, patch.body);
      assert.equal(patch.json().field, 'movedTo');
      const after = await db.selectFrom('collection_exception').selectAll().where('id', '!=', farthest.json().id).orderBy('id').execute();
      assert.deepEqual(after, before);
    });

    it('lets the group’s agent with CITIES write its holiday rules, checked and followed by the calendar', async (t) => {
      const { app, asManager, asEditor, asOutsider, asRoot } = await setup(t, kind);
      // Friday 25 December 2026 is Christmas: the stored exception cancels it. Take Whit Monday 2027 instead (17 May),
      // a Monday, when the centre's household waste is collected.
      assert.deepEqual(brief(await householdWaste(app, '2027-05-17', '2027-05-18')), [['2027-05-17', 'PLANNED', null]]);
      const group = await inject(app, asManager, 'GET', `/admin/city-groups/${ids.group}`);
      assert.equal(group.statusCode, 200);
      assert.deepEqual(group.json().holidayRules, []);
      const rules = [
        { holiday: '*', wasteTypeId: null, action: 'CANCEL' },
        { holiday: 'lundi-de-pentecote', wasteTypeId: ids.wasteOm, action: 'NEXT_DAY' },
      ];
      const written = await inject(app, { ...asManager, 'if-match': String(group.headers.etag) }, 'PATCH', `/admin/city-groups/${ids.group}`, {
        holidayRules: rules,
      });
      assert.equal(written.statusCode, 200, written.body);
      assert.deepEqual(written.json().holidayRules, rules);
      assert.notEqual(written.headers.etag, group.headers.etag, 'the rules are part of the version');
      const list = await householdWaste(app, '2027-05-17', '2027-05-18');
      assert.deepEqual(brief(list), [['2027-05-18', 'MOVED', '2027-05-17']]);
      assert.equal(list[0].note, 'Reportée du lundi 17 mai (Lundi de Pentecôte)');
      // The less specific rule cancels the other holidays: Easter Monday 2027 (29 March).
      assert.deepEqual(brief(await householdWaste(app, '2027-03-29', '2027-03-29', '&include=cancelled')), [['2027-03-29', 'CANCELLED', null]]);

      const etag = String(written.headers.etag);
      const refused: [object, string, string][] = [
        [{ holidayRules: [{ holiday: 'paques', wasteTypeId: null, action: 'CANCEL' }] }, 'holidayRules[0].holiday', 'validation'],
        [{ holidayRules: [{ holiday: 'noel', wasteTypeId: null, action: 'LATER' }] }, 'holidayRules[0].action', 'validation'],
        [{ holidayRules: [{ holiday: 'noel', wasteTypeId: '30000000-0000-4000-8000-0000000000ff', action: 'CANCEL' }] }, 'holidayRules[0].wasteTypeId', 'validation'],
        [{ holidayRules: [rules[0], { ...rules[0], action: 'KEEP' }] }, 'holidayRules[1]', 'validation'],
      ];
      for (const [body, field, code] of refused) {
        const res = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/city-groups/${ids.group}`, body);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual([res.json().code, res.json().field], [code, field], res.body);
      }
      // Its rules only: another field stays the super admin's; an agent without CITIES, or of another group, cannot.
      const named = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/city-groups/${ids.group}`, { holidayRules: [], name: 'Autre' });
      assert.equal(named.statusCode, 403, named.body);
      const editor = await inject(app, { ...asEditor, 'if-match': etag }, 'PATCH', `/admin/city-groups/${ids.group}`, { holidayRules: [] });
      assert.equal(editor.statusCode, 403, editor.body);
      const outsider = await inject(app, { ...asOutsider, 'if-match': etag }, 'PATCH', `/admin/city-groups/${ids.group}`, { holidayRules: [] });
      assert.equal(outsider.statusCode, 404, outsider.body);
      const stale = await inject(app, { ...asRoot, 'if-match': String(group.headers.etag) }, 'PATCH', `/admin/city-groups/${ids.group}`, { holidayRules: [] });
      assert.equal(stale.statusCode, 412, stale.body);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/city-groups/${ids.group}`)).json().holidayRules, rules, 'nothing refused was written');

      // A waste type of the group's other city is the group's too; [] removes every rule.
      const cleared = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/city-groups/${ids.group}`, { holidayRules: [] });
      assert.equal(cleared.statusCode, 200, cleared.body);
      assert.deepEqual(brief(await householdWaste(app, '2027-05-17', '2027-05-18')), [['2027-05-17', 'PLANNED', null]]);
    });

    it('follows Alsace-Moselle’s holidays for a city whose holidayCalendar says so', async (t) => {
      const { app, asManager } = await setup(t, kind);
      const group = await inject(app, asManager, 'GET', `/admin/city-groups/${ids.group}`);
      const rules = await inject(app, { ...asManager, 'if-match': String(group.headers.etag) }, 'PATCH', `/admin/city-groups/${ids.group}`, {
        holidayRules: [{ holiday: 'vendredi-saint', wasteTypeId: null, action: 'NEXT_DAY' }],
      });
      assert.equal(rules.statusCode, 200, rules.body);
      // Good Friday 2027 is 26 March: no public holiday in the rest of France, so the rule does nothing there.
      assert.deepEqual(brief(await householdWaste(app, '2027-03-26', '2027-03-27')), [['2027-03-26', 'PLANNED', null]]);

      const city = await inject(app, asManager, 'GET', `/admin/cities/${ids.brest}`);
      assert.equal(city.json().holidayCalendar, 'FR');
      const alsace = await inject(app, { ...asManager, 'if-match': String(city.headers.etag) }, 'PATCH', `/admin/cities/${ids.brest}`, {
        holidayCalendar: 'FR-ALSACE-MOSELLE',
      });
      assert.equal(alsace.statusCode, 200, alsace.body);
      assert.equal(alsace.json().holidayCalendar, 'FR-ALSACE-MOSELLE');
      const list = await householdWaste(app, '2027-03-26', '2027-03-27');
      assert.deepEqual(brief(list), [['2027-03-27', 'MOVED', '2027-03-26']]);
      assert.equal(list[0].note, 'Reportée du vendredi 26 mars (Vendredi saint)');

      const unknown = await inject(app, { ...asManager, 'if-match': String(alsace.headers.etag) }, 'PATCH', `/admin/cities/${ids.brest}`, {
        holidayCalendar: 'FR-CORSE',
      });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().field, 'holidayCalendar');
    });
  });
}
