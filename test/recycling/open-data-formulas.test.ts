// the open-data CSVs never hand a spreadsheet a formula. What agents type in the admin API (a
// point's, a place's, a waste type's, an exception's or a group's name) reaches `equipements.csv` and `collections.csv`;
// a text cell that begins like a formula is written with a leading `'`, and the numeric columns stay numbers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp, inject } from '../helpers/admin-fixtures.ts';

const HYPERLINK = '=HYPERLINK("http://x","y")';
const FORMULAS = [HYPERLINK, '+1', '@SUM(1)', '-2+3'];

for (const kind of testDatabaseKinds()) {
  describe(`open-data CSVs and formulas (${kind})`, () => {
    it('equipements.csv: point and group names that start a formula begin with \', the negative coordinates stay numbers', async (t) => {
      const { app, asManager, asRoot } = await citiesAdminApp(t, kind);
      const created: Record<string, string> = {};
      for (const [i, name] of FORMULAS.entries()) {
        const res = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/recycling-points`, {
          name, address: `${name}, 29200 Brest`, latitude: 48.4 + i / 100, longitude: -4.48 - i / 100, openingHoursSpec: 'Mo-Fr 09:00-18:00',
        });
        assert.equal(res.statusCode, 201, res.body);
        created[name] = res.json().id;
      }
      const group = await inject(app, asRoot, 'GET', `/admin/city-groups/${ids.group}`);
      const renamed = await inject(app, { ...asRoot, 'if-match': String(group.headers.etag) }, 'PATCH', `/admin/city-groups/${ids.group}`, { name: '@SUM(1)' });
      assert.equal(renamed.statusCode, 200, renamed.body);

      const res = await app.inject(`/public/city-groups/${ids.group}/equipements.csv`);
      assert.equal(res.statusCode, 200);
      const rows = parse(res.body, { columns: true }) as Record<string, string>[];
      for (const [i, name] of FORMULAS.entries()) {
        const row = rows.find((r) => r.EQUIP_UID === created[name]);
        assert.ok(row, name);
        assert.equal(row.EQUIP_NOM, `'${name}`, 'the name, neutralised');
        assert.equal(row.ADR_NOMVOIE, `'${name}`, 'the street split from the address, neutralised');
        assert.equal(row.COLL_NOM, "'@SUM(1)", 'the group’s name, neutralised');
        // The numeric columns are written as numbers: no quote, no prefix, read back as the very coordinates.
        assert.equal(row.EQUIP_LAT, String(48.4 + i / 100));
        assert.equal(row.EQUIP_LONG, String(-4.48 - i / 100));
        assert.equal(Number(row.EQUIP_LONG), -4.48 - i / 100);
        assert.ok(row.EQUIP_LONG.startsWith('-'), 'a negative longitude is a plain number');
        // The date-like and code-like text columns are untouched: they never start a formula.
        assert.equal(row.ADR_CODEPOSTAL, '29200');
        assert.equal(row.EQUIP_OUVERTURE, 'Mo-Fr 09:00-18:00');
      }
      // The seed's own point, with a negative longitude too, is unchanged.
      const spernot = rows.find((r) => r.EQUIP_NOM === 'Déchèterie du Spernot');
      assert.deepEqual([spernot?.EQUIP_LAT, spernot?.EQUIP_LONG], ['48.41', '-4.52']);
      // No cell of the document starts a formula.
      for (const row of parse(res.body) as string[][]) for (const cell of row) assert.doesNotMatch(cell, /^[=+@\t\r]|^-(?!\d)/, cell);
    });

    it('collections.csv: place, waste type and exception names that start a formula begin with \'', async (t) => {
      const { app, asManager } = await citiesAdminApp(t, kind);
      const post = async (url: string, body: object) => {
        const res = await inject(app, asManager, 'POST', url, body);
        assert.equal(res.statusCode, 201, res.body);
        return res.json() as { id: string };
      };
      const wasteType = await post(`/admin/cities/${ids.brest}/waste-types`, { name: '+1' });
      const place = await post(`/admin/cities/${ids.brest}/places`, { name: HYPERLINK });
      await post(`/admin/places/${place.id}/collection-days`, { name: 'lundi', wasteTypeId: wasteType.id });
      // Monday 14 December 2026 in Brest.
      await post(`/admin/places/${place.id}/exceptions`, { dateFrom: '2026-12-13T23:00:00.000Z', wasteTypeId: wasteType.id, name: '-2+3' });
      const other = await post(`/admin/cities/${ids.brest}/places`, { name: '@SUM(1)' });
      await post(`/admin/places/${other.id}/collection-days`, { name: 'lundi', wasteTypeId: wasteType.id });

      const res = await app.inject(`/public/cities/${ids.brest}/collections.csv?from=2026-12-07&to=2026-12-14`);
      assert.equal(res.statusCode, 200, res.body);
      const rows = (parse(res.body, { columns: true }) as Record<string, string>[]).filter((r) => r.secteur_id === place.id || r.secteur_id === other.id);
      assert.deepEqual(
        rows.map((r) => [r.secteur_nom, r.flux, r.date, r.statut, r.motif]),
        [
          ["'@SUM(1)", "'+1", '2026-12-07', 'PREVUE', ''],
          [`'${HYPERLINK}`, "'+1", '2026-12-07', 'PREVUE', ''],
          ["'@SUM(1)", "'+1", '2026-12-14', 'PREVUE', ''],
          [`'${HYPERLINK}`, "'+1", '2026-12-14', 'ANNULEE', "'-2+3"],
        ],
      );
    });
  });
}
