import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: null };
const SUPER_ADMIN_ONLY = {
  statusCode: 403, error: 'Forbidden', message: 'Seul un super administrateur peut créer, modifier ou supprimer un groupe de villes.',
  code: 'superAdminOnly', field: null,
};
const IROISE = { name: 'Pays d’Iroise', type: 'Communauté de communes', code: 'CCPI', siren: '242900645', siret: '24290064500019' };

/** The group's ETag, read by the super admin. */
const etagOf = async (app: FastifyInstance, asRoot: Record<string, string>, id: string) =>
  String((await inject(app, asRoot, 'GET', `/admin/city-groups/${id}`)).headers.etag);
const publicGroupNames = async (app: FastifyInstance) =>
  ((await app.inject('/public/city-groups')).json() as { name: string }[]).map((g) => g.name);
const publicBrestGroup = async (app: FastifyInstance) =>
  ((await app.inject('/public/cities')).json() as { id: string; cityGroup: { name: string } }[]).find((c) => c.id === ids.brest)!.cityGroup.name;

for (const kind of testDatabaseKinds()) {
  describe(`/admin city groups (${kind})`, () => {
    it('lets a super admin create, change and delete a group, each write public at once and audited; 409 for a group with cities', async (t) => {
      const { app, db, asRoot } = await setup(t, kind);
      // Warm the public caches, so that what follows proves the writes reach them.
      assert.equal(await publicBrestGroup(app), 'Brest Métropole');
      assert.equal((await publicGroupNames(app)).length, 2);

      const created = await inject(app, asRoot, 'POST', '/admin/city-groups', { ...IROISE, name: '  Pays d’Iroise ' });
      assert.equal(created.statusCode, 201, created.body);
      const group = created.json();
      assert.deepEqual({ ...group, id: undefined, createdAt: undefined, updatedAt: undefined }, {
        ...IROISE, id: undefined, chatEnabled: false, contactPhone: null, contactEmail: null, contactHours: null, contactAddress: null,
        holidayRules: [], embedOrigins: [], createdAt: undefined, updatedAt: undefined,
      });
      assert.match(group.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok((await publicGroupNames(app)).includes('Pays d’Iroise'));

      const list = await inject(app, asRoot, 'GET', '/admin/city-groups?pageSize=2');
      assert.deepEqual(list.json().meta, { page: 1, pageSize: 2, total: 3, totalPages: 2 });
      assert.deepEqual(list.json().data.map((g: { name: string }) => g.name), ['Aber Communauté', 'Brest Métropole'], 'by name, French');

      const read = await inject(app, asRoot, 'GET', `/admin/city-groups/${group.id}`);
      assert.deepEqual(read.json(), group);
      const etag = String(read.headers.etag);
      const changed = await inject(app, { ...asRoot, 'if-match': etag }, 'PATCH', `/admin/city-groups/${group.id}`, { chatEnabled: true, code: 'IROISE' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual({ ...(changed.json() as object), updatedAt: undefined }, { ...group, chatEnabled: true, code: 'IROISE', updatedAt: undefined });
      const stale = await inject(app, { ...asRoot, 'if-match': etag }, 'DELETE', `/admin/city-groups/${group.id}`);
      assert.equal(stale.statusCode, 412);

      // A group that holds cities is not deleted: its cities would be left without a group.
      const asRootOnGroup = { ...asRoot, 'if-match': await etagOf(app, asRoot, ids.group) };
      const full = await inject(app, asRootOnGroup, 'DELETE', `/admin/city-groups/${ids.group}`);
      assert.equal(full.statusCode, 409);
      assert.equal(full.json().message,
        'Ce groupe de villes contient encore 3\u00a0villes\u00a0: supprimez-les ou rattachez-les à un autre groupe d’abord.');
      const renamed = await inject(app, asRootOnGroup, 'PATCH', `/admin/city-groups/${ids.group}`, { name: 'Brest métropole océane' });
      assert.equal(renamed.statusCode, 200);
      assert.equal(await publicBrestGroup(app), 'Brest métropole océane', 'the cached city list follows the write');

      const deleted = await inject(app, { ...asRoot, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/city-groups/${group.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/city-groups/${group.id}`)).json(), NOT_FOUND);
      assert.ok(!(await publicGroupNames(app)).includes('Pays d’Iroise'));

      const audit = await inject(app, asRoot, 'GET', `/admin/audit?entity=cityGroup&entityId=${group.id}`);
      const entries = audit.json().data as { action: string; before: { code: string } | null; after: { code: string } | null }[];
      assert.deepEqual(entries.map((e) => e.action).sort(), ['create', 'delete', 'update']);
      const update = entries.find((e) => e.action === 'update')!;
      assert.deepEqual([update.before!.code, update.after!.code], ['CCPI', 'IROISE']);
      assert.equal(entries.find((e) => e.action === 'delete')!.after, null);
      assert.equal((await db.selectFrom('city').select('id').where('city_group_id', '=', ids.group).execute()).length, 3);
    });

    it('keeps writes to super admins (403), reads to an agent’s own groups (404 elsewhere), and refuses a SIRET of another SIREN', async (t) => {
      const { app, db, asRoot, asManager, asOutsider, asEditor } = await setup(t, kind);
      const count = async () => (await db.selectFrom('city_group').select('id').execute()).length;
      const version = await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow();

      assert.equal((await inject(app, {}, 'GET', '/admin/city-groups')).statusCode, 401);
      const mine = await inject(app, asManager, 'GET', '/admin/city-groups');
      assert.deepEqual(mine.json().data.map((g: { id: string }) => g.id), [ids.group]);
      assert.deepEqual((await inject(app, asOutsider, 'GET', '/admin/city-groups')).json().data.map((g: { id: string }) => g.id), [ids.emptyGroup]);
      assert.equal((await inject(app, asEditor, 'GET', `/admin/city-groups/${ids.group}`)).statusCode, 200, 'any admin permission reads its group');
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/city-groups/${ids.emptyGroup}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/city-groups/${UNKNOWN}`)).json(), NOT_FOUND);

      assert.deepEqual((await inject(app, asManager, 'POST', '/admin/city-groups', IROISE)).json(), SUPER_ADMIN_ONLY);
      // With the group's very ETag: still 403 for a manager, 404 for an agent of another group.
      const ifMatch = { 'if-match': await etagOf(app, asRoot, ids.group) };
      assert.deepEqual((await inject(app, { ...asManager, ...ifMatch }, 'PATCH', `/admin/city-groups/${ids.group}`, { name: 'x' })).json(), SUPER_ADMIN_ONLY);
      assert.deepEqual((await inject(app, { ...asManager, ...ifMatch }, 'DELETE', `/admin/city-groups/${ids.group}`)).json(), SUPER_ADMIN_ONLY);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'PATCH', `/admin/city-groups/${ids.group}`, { name: 'x' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'DELETE', `/admin/city-groups/${ids.group}`)).json(), NOT_FOUND);

      const siret = await inject(app, asRoot, 'POST', '/admin/city-groups', { ...IROISE, siret: '11111111100011' });
      assert.deepEqual(siret.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'siret',
        message: 'Le champ «\u00a0siret\u00a0» doit commencer par le SIREN du groupe (242900645).',
      });
      const patched = await inject(app, { ...asRoot, ...ifMatch }, 'PATCH', `/admin/city-groups/${ids.group}`, { siret: '11111111100011' });
      assert.equal(patched.statusCode, 400);
      assert.match(patched.json().message, /«\u00a0siret\u00a0»/);
      const blank = await inject(app, asRoot, 'POST', '/admin/city-groups', { ...IROISE, name: '   ' });
      assert.equal(blank.statusCode, 400);
      assert.match(blank.json().message, /name/);

      assert.equal(await count(), 2);
      assert.deepEqual(await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow(), version);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity', '=', 'cityGroup').execute()).length, 0);
    });

    it('lets the group’s CITIES agents set the sites that frame its widgets: https origins only, normalised, none twice, 400 naming the one at fault', async (t) => {
      const { app, db, asManager, asOutsider, asEditor } = await setup(t, kind);
      const url = `/admin/city-groups/${ids.group}`;
      const ifMatch = async () => ({ 'if-match': String((await inject(app, asManager, 'GET', url)).headers.etag) });
      assert.deepEqual((await inject(app, asManager, 'GET', url)).json().embedOrigins, []);

      const set = await inject(app, { ...asManager, ...(await ifMatch()) }, 'PATCH', url, {
        embedOrigins: ['https://www.plouzane.fr', ' HTTPS://Mairie.Guipavas.FR/ ', 'https://brest.fr:8443'],
      });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().embedOrigins, ['https://www.plouzane.fr', 'https://mairie.guipavas.fr', 'https://brest.fr:8443']);
      const row = await db.selectFrom('city_group').select('embed_origins').where('id', '=', ids.group).executeTakeFirstOrThrow();
      assert.deepEqual(row.embed_origins, ['https://www.plouzane.fr', 'https://mairie.guipavas.fr', 'https://brest.fr:8443']);

      const refused = async (embedOrigins: unknown[], field: string, message: RegExp) => {
        const res = await inject(app, { ...asManager, ...(await ifMatch()) }, 'PATCH', url, { embedOrigins });
        assert.equal(res.statusCode, 400, `${JSON.stringify(embedOrigins)}: ${res.body}`);
        assert.equal(res.json().field, field);
        assert.match(res.json().message, message);
      };
      const HTTPS = /«\u00a0embedOrigins\[\d\]\u00a0» doit être l’origine https d’un site/;
      await refused(['https://a.fr', 'http://www.plouzane.fr'], 'embedOrigins[1]', HTTPS);
      await refused(['https://www.plouzane.fr/dechets'], 'embedOrigins[0]', HTTPS);
      await refused(['https://www.plouzane.fr?x=1'], 'embedOrigins[0]', HTTPS);
      await refused(['https://user:pw@plouzane.fr'], 'embedOrigins[0]', HTTPS);
      await refused(['plouzane.fr'], 'embedOrigins[0]', HTTPS);
      await refused(['https://a.fr', 'https://A.fr/'], 'embedOrigins[1]', /déjà dans la liste \(https:\/\/a\.fr\)/);
      await refused([42], 'embedOrigins[0]', /embedOrigins/);
      assert.deepEqual((await inject(app, asManager, 'GET', url)).json().embedOrigins, ['https://www.plouzane.fr', 'https://mairie.guipavas.fr', 'https://brest.fr:8443'], 'nothing changed');

      // The rest of the group stays the super admin's, even beside the origins; other permissions and groups: refused.
      assert.deepEqual((await inject(app, { ...asManager, ...(await ifMatch()) }, 'PATCH', url, { embedOrigins: [], name: 'x' })).json(), SUPER_ADMIN_ONLY);
      assert.deepEqual((await inject(app, { ...asEditor, ...(await ifMatch()) }, 'PATCH', url, { embedOrigins: [] })).json(), SUPER_ADMIN_ONLY);
      assert.deepEqual((await inject(app, { ...asOutsider, ...(await ifMatch()) }, 'PATCH', url, { embedOrigins: [] })).json(), NOT_FOUND);
      const cleared = await inject(app, { ...asManager, ...(await ifMatch()) }, 'PATCH', url, { embedOrigins: [] });
      assert.deepEqual(cleared.json().embedOrigins, []);
      const audited = await db.selectFrom('audit_entry').select(['action']).where('entity', '=', 'cityGroup').where('entity_id', '=', ids.group).execute();
      assert.equal(audited.length, 2, 'each change audited');
    });

    it('sets the contact block citizens see (phone, e-mail, hours, address), clears it with null, and refuses a malformed one (400 in French)', async (t) => {
      const { app, asRoot } = await setup(t, kind);
      const contact = {
        contactPhone: '02 98 33 50 50',
        contactEmail: 'Proprete@Brest-Metropole.example',
        contactHours: 'du lundi au vendredi, de 8 h 30 à 17 h 30',
        contactAddress: '24 rue Coat-ar-Guéven\n29200 Brest',
      };
      const patched = await inject(app, { ...asRoot, 'if-match': await etagOf(app, asRoot, ids.group) }, 'PATCH', `/admin/city-groups/${ids.group}`, contact);
      assert.equal(patched.statusCode, 200, patched.body);
      const stored = { ...contact, contactEmail: 'proprete@brest-metropole.example' };
      assert.deepEqual(
        [patched.json().contactPhone, patched.json().contactEmail, patched.json().contactHours, patched.json().contactAddress],
        Object.values(stored),
      );
      const publicGroup = async () => ((await app.inject('/public/city-groups')).json() as { id: string }[]).find((g) => g.id === ids.group) as Record<string, unknown>;
      const shown = await publicGroup();
      assert.deepEqual(Object.fromEntries(Object.keys(contact).map((k) => [k, shown[k]])), stored);

      const faults: [Record<string, unknown>, string][] = [
        [{ contactPhone: 'appelez-nous' }, 'Le champ « contactPhone » doit être un numéro de téléphone, par exemple 02 98 33 50 50.'],
        [{ contactEmail: 'pas-une-adresse' }, 'Le champ « contactEmail » doit être une adresse e-mail.'],
        [{ contactHours: '   ' }, 'Le champ « contactHours » ne doit pas être vide ni ne contenir que des espaces.'],
        [{ contactAddress: 'x'.repeat(501) }, 'Le champ « contactAddress » doit contenir au plus 500 caractères.'],
        [{ contactPhone: 298335050 }, 'Le champ « contactPhone » doit être une chaîne de caractères.'],
      ];
      const asRootOnGroup = { ...asRoot, 'if-match': String(patched.headers.etag) };
      for (const [body, message] of faults) {
        const res = await inject(app, asRootOnGroup, 'PATCH', `/admin/city-groups/${ids.group}`, body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json().message.replace(/\u00a0/g, ' '), message);
      }

      const cleared = await inject(app, asRootOnGroup, 'PATCH', `/admin/city-groups/${ids.group}`, { contactPhone: null, contactHours: null });
      assert.equal(cleared.statusCode, 200);
      assert.deepEqual([(await publicGroup()).contactPhone, (await publicGroup()).contactHours, (await publicGroup()).contactEmail], [null, null, stored.contactEmail]);
    });
  });
}
