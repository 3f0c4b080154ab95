import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { requestsApp } from '../helpers/request-fixtures.ts';
import {
  ABER_SIREN,
  assertFields,
  assertOpen311Error,
  assertXmlError,
  BREST_SIREN,
  DATATYPES,
  parseXml,
} from '../helpers/open311-fixtures.ts';

/**
 * Open311's discovery, services and service definitions (docs/api.md, Open311), in JSON and XML, each answer checked
 * against GeoReport v2's field lists and each XML document validated and parsed by fast-xml-parser.
 */

const CATALOGUE = ['autre', 'bac-endommage', 'bac-vole', 'collecte-non-effectuee', 'demande-bac', 'depot-sauvage', 'encombrants', 'point-apport-plein'];

for (const kind of testDatabaseKinds()) {
  describe(`Open311 discovery and services (${kind})`, () => {
    it('has a page of its own in the API documentation', async (t) => {
      const { app } = await requestsApp(t, kind);
      const page = await app.inject('/docs/open311/json');
      assert.equal(page.statusCode, 200);
      const paths = Object.keys(page.json().paths);
      assert.ok(paths.includes('/open311/v2/requests.json') && paths.includes('/open311/v2/services/{code}.xml'), paths.join(', '));
      // The interface and the keys that open it: nothing else.
      assert.ok(paths.every((path) => path.startsWith('/open311/v2/') || path.startsWith('/admin/open311-keys')), paths.join(', '));
      assert.ok(paths.includes('/admin/open311-keys'), paths.join(', '));
      const publicPage = Object.keys((await app.inject('/docs/json')).json().paths);
      assert.ok(!publicPage.some((path) => path.startsWith('/open311')));
      const adminPage = Object.keys((await app.inject('/docs/admin/json')).json().paths);
      assert.ok(!adminPage.some((path) => path.startsWith('/open311') || path.startsWith('/admin/open311-keys')));
    });

    it('describes the endpoint in discovery, in JSON and XML', async (t) => {
      const { app } = await requestsApp(t, kind);
      const json = await app.inject({ url: '/open311/v2/discovery.json', headers: { host: 'collecte.example.fr' } });
      assert.equal(json.statusCode, 200, json.body);
      assert.match(String(json.headers['content-type']), /^application\/json/);
      const discovery = json.json();
      assertFields(discovery, 'discovery');
      assert.equal(discovery.endpoints.length, 1);
      assertFields(discovery.endpoints[0], 'endpoint');
      assert.equal(discovery.endpoints[0].specification, 'http://wiki.open311.org/GeoReport_v2');
      assert.equal(discovery.endpoints[0].type, 'production');
      assert.equal(discovery.endpoints[0].url, 'http://collecte.example.fr/open311/v2');
      assert.deepEqual(discovery.endpoints[0].formats, ['application/json', 'text/xml']);
      assert.match(discovery.changeset, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

      const xml = parseXml(await app.inject({ url: '/open311/v2/discovery.xml', headers: { host: 'collecte.example.fr' } }));
      assert.equal(xml.root, 'discovery');
      assertFields(xml.content, 'discovery');
      assert.deepEqual(Object.keys(xml.content.endpoints), ['endpoint']);
      assertFields(xml.content.endpoints.endpoint[0], 'endpoint');
      assert.deepEqual(xml.content.endpoints.endpoint[0].formats.format, ['application/json', 'text/xml']);
    });

    it('lists a group’s active request types as services, by its SIREN', async (t) => {
      const { app, db } = await requestsApp(t, kind);
      await db.updateTable('request_type').set({ active: false }).where('city_group_id', '=', ids.group).where('code', '=', 'demande-bac').execute();
      const response = await app.inject(`/open311/v2/services.json?jurisdiction_id=${BREST_SIREN}`);
      assert.equal(response.statusCode, 200, response.body);
      const services = response.json() as Record<string, unknown>[];
      for (const service of services) assertFields(service, 'service');
      assert.deepEqual(services.map((s) => s.service_code).sort(), CATALOGUE.filter((c) => c !== 'demande-bac'));
      const names = services.map((s) => String(s.service_name));
      assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b, 'fr')));
      const missed = services.find((s) => s.service_code === 'collecte-non-effectuee')!;
      assert.deepEqual(
        [missed.service_name, missed.type, missed.metadata, missed.group],
        ['Collecte non effectuée', 'realtime', true, 'Collecte'],
      );
      // Illegal dumping asks nothing beyond a description and a position: no metadata.
      assert.equal(services.find((s) => s.service_code === 'depot-sauvage')!.metadata, false);

      const xml = parseXml(await app.inject(`/open311/v2/services.xml?jurisdiction_id=${BREST_SIREN}`));
      assert.equal(xml.root, 'services');
      assert.deepEqual(Object.keys(xml.content), ['service']);
      assert.equal(xml.content.service.length, services.length);
      for (const service of xml.content.service) assertFields(service, 'service');
      assert.equal(xml.content.service.find((s: { service_code: string }) => s.service_code === 'depot-sauvage').metadata, 'false');
    });

    it('needs jurisdiction_id while the service holds several groups; an unknown one is 404, in the standard’s errors', async (t) => {
      const { app, db } = await requestsApp(t, kind);
      assertOpen311Error(await app.inject('/open311/v2/services.json'), 400, 'jurisdiction_id');
      assertXmlError(await app.inject('/open311/v2/services.xml'), 400);
      assertOpen311Error(await app.inject('/open311/v2/services.json?jurisdiction_id=999999999'), 404, 'jurisdiction_id');
      assertXmlError(await app.inject('/open311/v2/services.xml?jurisdiction_id=999999999'), 404);
      assert.equal((await app.inject(`/open311/v2/services.json?jurisdiction_id=${ABER_SIREN}`)).json().length, CATALOGUE.length);
      // One group left: jurisdiction_id may be left out.
      await db.deleteFrom('city_group').where('id', '=', ids.emptyGroup).execute();
      await app.dataChanged();
      const alone = await app.inject('/open311/v2/services.json');
      assert.equal(alone.statusCode, 200, alone.body);
      // An unknown path under /open311 is the standard's 404 too, in the format it asks for.
      assertOpen311Error(await app.inject('/open311/v2/nothing.json'), 404);
      assertXmlError(await app.inject('/open311/v2/nothing.xml'), 404);
      assertOpen311Error(await app.inject('/open311'), 404);
    });

    it('defines a service with the type’s fields, its waste type and its day', async (t) => {
      const { app, db } = await requestsApp(t, kind);
      const missed = await app.inject(`/open311/v2/services/collecte-non-effectuee.json?jurisdiction_id=${BREST_SIREN}`);
      assert.equal(missed.statusCode, 200, missed.body);
      const definition = missed.json();
      assertFields(definition, 'serviceDefinition');
      for (const attribute of definition.attributes) {
        assertFields(attribute, 'attribute');
        assert.ok(DATATYPES.includes(attribute.datatype), attribute.datatype);
        for (const value of attribute.values) assertFields(value, 'value');
      }
      assert.equal(definition.service_code, 'collecte-non-effectuee');
      assert.deepEqual(
        definition.attributes.map((a: Record<string, unknown>) => [a.code, a.datatype, a.required, a.order]),
        [['waste_type', 'singlevaluelist', true, 1], ['date', 'datetime', true, 2]],
      );
      assert.deepEqual(definition.attributes[0].values.map((v: { key: string }) => v.key), ['Emballages', 'Ordures ménagères', 'Verre']);

      const bin = (await app.inject(`/open311/v2/services/demande-bac.json?jurisdiction_id=${BREST_SIREN}`)).json();
      assert.deepEqual(bin.attributes.map((a: Record<string, unknown>) => [a.code, a.datatype, a.required]), [['waste_type', 'singlevaluelist', false], ['motif', 'singlevaluelist', true], ['foyer', 'number', false]]);
      assert.equal(bin.attributes[1].description, 'Motif de la demande');
      assert.ok(bin.attributes[1].values.some((v: { key: string; name: string }) => v.key === 'nouvel-arrivant' && v.name === 'Nouvel arrivant'));

      const full = (await app.inject(`/open311/v2/services/point-apport-plein.json?jurisdiction_id=${BREST_SIREN}`)).json();
      const point = full.attributes.find((a: { code: string }) => a.code === 'recycling_point');
      assert.ok(point.values.some((v: { name: string }) => v.name === 'Déchèterie du Spernot (Brest)'));

      const xml = parseXml(await app.inject(`/open311/v2/services/demande-bac.xml?jurisdiction_id=${BREST_SIREN}`));
      assert.equal(xml.root, 'service_definition');
      assertFields(xml.content, 'serviceDefinition');
      assert.deepEqual(Object.keys(xml.content.attributes), ['attribute']);
      for (const attribute of xml.content.attributes.attribute) assertFields(attribute, 'attribute');
      assert.deepEqual(Object.keys(xml.content.attributes.attribute[0].values), ['value']);
      assertFields(xml.content.attributes.attribute[0].values.value[0], 'value');

      // Unknown or inactive: 404.
      await db.updateTable('request_type').set({ active: false }).where('city_group_id', '=', ids.group).where('code', '=', 'bac-vole').execute();
      assertOpen311Error(await app.inject(`/open311/v2/services/bac-vole.json?jurisdiction_id=${BREST_SIREN}`), 404);
      assertXmlError(await app.inject(`/open311/v2/services/nope.xml?jurisdiction_id=${BREST_SIREN}`), 404);
    });
  });
}
