import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { osmMaterialsOf } from '../../src/recycling/osm-materials.ts';
import { parseFrenchAddress } from '../../src/recycling/equipements.ts';
import { buildTestApp } from '../helpers/app.ts';
import { BUNDLE_IDS as ids } from '../helpers/bundle-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { CENTRE_SPEC, POINT_IDS, importRecyclingBundle, recyclingBundle } from '../helpers/recycling-fixtures.ts';

/** The columns of the SCDL `equipements` schema 0.1.5, in its order (schema.data.gouv.fr/scdl/equipements). */
const SCDL_COLUMNS =
  'COLL_NOM,COLL_SIRET,EQUIP_UID,EQUIP_THEME,EQUIP_CODE,EQUIP_TYPE,EQUIP_NOM,ADR_NUMERO,ADR_NOMVOIE,ADR_CODEPOSTAL,' +
  'ADR_COMMUNE,ADR_CLE_INTEROP,ERP_ID,ERP_TYPE,ERP_CATEGORIE,EQUIP_LAT,EQUIP_LONG,EQUIP_OUVERTURE,EQUIP_TEL,EQUIP_EMAIL,EQUIP_WEB';

describe('open-data mappings', () => {
  it('reads OSM materials from the waste type names cities use', () => {
    assert.deepEqual(osmMaterialsOf('Verre'), ['glass_bottles']);
    assert.deepEqual(osmMaterialsOf('Emballages et papiers'), ['plastic_packaging', 'cans', 'beverage_cartons', 'paper']);
    assert.deepEqual(osmMaterialsOf('Déchets verts'), ['green_waste'], '`verts` is not `verre`');
    assert.deepEqual(osmMaterialsOf('TEXTILES'), ['clothes']);
    assert.deepEqual(osmMaterialsOf('Piles et batteries'), ['batteries']);
    assert.deepEqual(osmMaterialsOf('Ordures ménagères'), []);
    assert.deepEqual(osmMaterialsOf('Pharmacie'), []);
  });

  it('splits a one-line French address into the SCDL parts', () => {
    assert.deepEqual(parseFrenchAddress('12 bis avenue des Lilas, 69000 Testville'), {
      number: '12 bis',
      street: 'avenue des Lilas',
      postcode: '69000',
      commune: 'Testville',
    });
    assert.deepEqual(parseFrenchAddress('Zone de Lavallot, 29490 Guipavas'), {
      number: null,
      street: 'Zone de Lavallot',
      postcode: '29490',
      commune: 'Guipavas',
    });
    assert.deepEqual(parseFrenchAddress('Derrière la mairie'), { number: null, street: 'Derrière la mairie', postcode: null, commune: null });
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`open-data exports of recycling points (${kind})`, () => {
    async function setup(t: { after: (fn: () => Promise<void>) => void }, bundle = recyclingBundle()) {
      const { app, database } = await buildTestApp(t, kind);
      await importRecyclingBundle(t, database, bundle);
      return { app };
    }

    it('GeoJSON: a FeatureCollection of Points in [lon, lat] with the OSM tags of each point', async (t) => {
      const { app } = await setup(t);
      const res = await app.inject({ url: `/public/cities/${ids.city}/recycling-points.geojson`, headers: { 'accept-encoding': 'gzip' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/geo+json; charset=utf-8');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="[\w.-]+\.geojson"$/);
      const plain = await app.inject(`/public/cities/${ids.city}/recycling-points.geojson`);
      assert.equal(res.headers['content-encoding'], 'gzip', 'compressed like JSON');
      const doc = plain.json();
      assert.equal(doc.type, 'FeatureCollection');
      // The point without a position cannot be a Point.
      assert.equal(doc.features.length, 3);
      for (const feature of doc.features) {
        assert.equal(feature.type, 'Feature');
        assert.equal(feature.geometry.type, 'Point');
        const [lon, lat] = feature.geometry.coordinates;
        assert.equal(feature.geometry.coordinates.length, 2);
        assert.ok(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90, `${lon}, ${lat}`);
        assert.equal(feature.properties.amenity, 'recycling');
        assert.equal(feature.properties['collecte:id'], feature.id);
        for (const value of Object.values(feature.properties)) assert.equal(typeof value, 'string');
      }
      const byId = new Map(doc.features.map((f: { id: string }) => [f.id, f]));
      const centre = byId.get(POINT_IDS.centre) as { geometry: { coordinates: number[] }; properties: Record<string, string> };
      assert.deepEqual(centre.geometry.coordinates, [4.86, 45.76]);
      assert.deepEqual(centre.properties, {
        amenity: 'recycling',
        recycling_type: 'centre',
        name: 'Déchèterie de Testville',
        'addr:full': '1 rue du Tri, 69000 Testville',
        opening_hours: CENTRE_SPEC,
        'recycling:beverage_cartons': 'yes',
        'recycling:cans': 'yes',
        'recycling:clothes': 'yes',
        'recycling:glass_bottles': 'yes',
        'recycling:green_waste': 'yes',
        'recycling:paper': 'yes',
        'recycling:plastic_packaging': 'yes',
        'collecte:id': POINT_IDS.centre,
        'collecte:kind': 'CENTRE',
      });
      const glass = byId.get(POINT_IDS.glass) as { properties: Record<string, string> };
      assert.equal(glass.properties.recycling_type, 'container');
      assert.equal(glass.properties['recycling:glass_bottles'], 'yes');
      assert.equal(glass.properties.opening_hours, '24/7');
      const shop = byId.get(POINT_IDS.shop) as { properties: Record<string, string> };
      assert.equal('recycling_type' in shop.properties, false, 'a SHOP has no recycling_type');
      assert.equal(shop.properties['collecte:kind'], 'SHOP');
      assert.equal(shop.properties['recycling:clothes'], 'yes');
    });

    it('équipements CSV: the SCDL columns in order, one row per point of the group\'s ACTIF cities', async (t) => {
      const { app } = await setup(t);
      const res = await app.inject(`/public/city-groups/${ids.cityGroup}/equipements.csv`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="equipements-[\w-]+\.csv"$/);
      assert.ok(res.body.startsWith(`${SCDL_COLUMNS}\r\n`), 'header row first');
      const rows = parse(res.body, { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        rows.map((r) => r.EQUIP_UID),
        [POINT_IDS.shop, POINT_IDS.glass, POINT_IDS.unlocated, POINT_IDS.centre],
        'by name; the NON_ACTIF city\'s point is left out',
      );
      for (const r of rows) {
        assert.equal(r.COLL_NOM, 'Communauté de communes du Val Test');
        assert.equal(r.COLL_SIRET, '200000001', 'the SIREN when the bundle gives no SIRET');
        assert.equal(r.EQUIP_THEME, 'Autre équipement');
      }
      const [shop, glass, unlocated, centre] = rows;
      assert.deepEqual(
        [shop.EQUIP_TYPE, shop.EQUIP_NOM, shop.ADR_NUMERO, shop.ADR_NOMVOIE, shop.ADR_CODEPOSTAL, shop.ADR_COMMUNE],
        ['Point de reprise', 'Atelier "Seconde Main"', '12 bis', 'avenue des Lilas', '69000', 'Testville'],
      );
      assert.deepEqual([glass.EQUIP_TYPE, glass.ADR_NUMERO, glass.ADR_NOMVOIE, glass.EQUIP_OUVERTURE], [
        "Point d'apport volontaire",
        '99999',
        'Place du Marché',
        '24/7',
      ]);
      assert.deepEqual([centre.EQUIP_TYPE, centre.EQUIP_LAT, centre.EQUIP_LONG, centre.EQUIP_OUVERTURE], ['Déchèterie', '45.76', '4.86', CENTRE_SPEC]);
      assert.deepEqual([unlocated.EQUIP_LAT, unlocated.EQUIP_LONG, unlocated.EQUIP_OUVERTURE, unlocated.ADR_COMMUNE], ['', '', '', 'Testville']);
    });

    it('équipements CSV: COLL_SIRET is the group\'s SIRET when the bundle gives one; unknown group 404', async (t) => {
      const bundle = recyclingBundle();
      bundle.cityGroups![0].siret = '20000000100017';
      const { app } = await setup(t, bundle);
      const rows = parse((await app.inject(`/public/city-groups/${ids.cityGroup}/equipements.csv`)).body, { columns: true }) as Record<string, string>[];
      assert.ok(rows.length > 0 && rows.every((r) => r.COLL_SIRET === '20000000100017'));
      const unknown = await app.inject('/public/city-groups/ffffffff-0000-4000-8000-000000000000/equipements.csv');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().message, 'Groupe de villes introuvable');
      assert.equal((await app.inject('/public/city-groups/abc/equipements.csv')).statusCode, 400);
    });

    it('GeoJSON of an unknown or NON_ACTIF city: 404', async (t) => {
      const { app } = await setup(t);
      for (const cityId of [POINT_IDS.inactiveCity, 'ffffffff-0000-4000-8000-000000000000']) {
        const res = await app.inject(`/public/cities/${cityId}/recycling-points.geojson`);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().message, 'Ville introuvable');
      }
    });

    it('GET /public/cities and /public/cities/:id keep the seed\'s bytes: the new fields stay out', async (t) => {
      const plain = recyclingBundle();
      for (const city of plain.cities!) {
        for (const point of city.recyclingPoints ?? []) {
          delete point.openingHoursSpec;
          delete point.kind;
          delete point.materials;
        }
      }
      const { app: before } = await setup(t, plain);
      const { app: after } = await setup(t);
      for (const path of ['/public/cities', `/public/cities/${ids.city}`]) {
        const a = await before.inject(path);
        const b = await after.inject(path);
        assert.equal(a.statusCode, 200);
        assert.equal(b.body, a.body, `${path} is byte for byte the same`);
        assert.equal(b.body.includes('openingHoursSpec'), false);
      }
    });
  });
}
