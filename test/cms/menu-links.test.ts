// A menu item's external link opens the web, an e-mail or a phone call, never a script. The scheme
// is read as a browser reads it (case, spaces, tabs and control characters cannot hide `javascript:`), by the one
// rule the admin API and the import bundle share (src/kernel/links.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importBundle } from '../../src/bundle/import.ts';
import { BundleValidationError } from '../../src/bundle/faults.ts';
import { isAllowedLink, linkProtocol } from '../../src/kernel/links.ts';
import { buildTestApp } from '../helpers/app.ts';
import { BUNDLE_IDS as bundleIds, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

/** Links that would run a script or render a document in the page, each with the scheme the URL parser reads. */
const REFUSED: [url: string, protocol: string][] = [
  ['javascript:alert(1)', 'javascript:'],
  ['JaVaScRiPt:alert(1)', 'javascript:'],
  [' javascript:alert(1)', 'javascript:'],
  ['java\tscript:alert(1)', 'javascript:'],
  ['java\nscript:alert(1)', 'javascript:'],
  ['\u0000javascript:alert(1)', 'javascript:'],
  ['\u001fjavascript:alert(1)  ', 'javascript:'],
  ['data:text/html,<script>alert(1)</script>', 'data:'],
  ['DATA:text/html;base64,PHNjcmlwdD4=', 'data:'],
  ['vbscript:msgbox(1)', 'vbscript:'],
  ['blob:https://brest.fr/0f1e', 'blob:'],
  ['file:///etc/passwd', 'file:'],
];
const ACCEPTED = ['https://brest.fr/contact', 'http://brest.fr', 'mailto:dechets@brest.fr', 'tel:+33298000000', 'HTTPS://BREST.FR/'];

const refusal = (protocol: string) => ({
  statusCode: 400,
  error: 'Bad Request',
  code: 'validation',
  field: 'externalUrl',
  message: `Le champ «\u00a0externalUrl\u00a0» doit être un lien http, https, mailto ou tel (« ${protocol} » n’est pas accepté).`,
});

describe('menu links: the scheme as a browser reads it', () => {
  it('accepts http, https, mailto and tel; refuses every other scheme however it is written', () => {
    for (const url of ACCEPTED) assert.equal(isAllowedLink(url), true, url);
    for (const [url, protocol] of REFUSED) {
      assert.equal(linkProtocol(url), protocol, JSON.stringify(url));
      assert.equal(isAllowedLink(url), false, JSON.stringify(url));
    }
    for (const relative of ['brest.fr', '/contact', '//brest.fr']) assert.equal(linkProtocol(relative), null, relative);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`menu links through the admin API and the import bundle (${kind})`, () => {
    it('admin: a javascript:, data: or vbscript: link is a 400 at externalUrl on create and on patch, nothing stored', async (t) => {
      const { app, db, asWebmaster } = await setup(t, kind);
      const site = (await inject(app, asWebmaster, 'POST', `/admin/city-groups/${ids.group}/sites`, { name: 'Brest Propreté', slug: 'brest-proprete', type: 'SITE' })).json();
      const menu = (await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/menus`, { name: 'En-tête', location: 'header' })).json();
      const items = `/admin/menus/${menu.id}/items`;

      // The links that were valid stay valid, on create and on patch.
      const created: { id: string }[] = [];
      for (const url of ACCEPTED) {
        const res = await inject(app, asWebmaster, 'POST', items, { label: url, linkType: 'EXTERNAL', externalUrl: url });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().externalUrl, url, 'stored as written');
        created.push(res.json());
      }
      const contact = created[0];
      const version = await storedVersion(db);
      const stored = async () => (await db.selectFrom('menu_item').select(['id', 'external_url']).orderBy('id').execute());
      const before = await stored();

      for (const [url, protocol] of REFUSED) {
        const res = await inject(app, asWebmaster, 'POST', items, { label: 'Piège', linkType: 'EXTERNAL', externalUrl: url });
        assert.equal(res.statusCode, 400, JSON.stringify(url));
        if (url.includes('\u0000')) {
          // PostgreSQL cannot store NUL: the request is refused before the rule, at the same field.
          assert.deepEqual([res.json().code, res.json().field], ['validation', 'externalUrl']);
        } else {
          assert.deepEqual(res.json(), refusal(protocol), JSON.stringify(url));
        }
        const etag = String((await inject(app, asWebmaster, 'GET', `/admin/menu-items/${contact.id}`)).headers.etag);
        const patched = await inject(app, { ...asWebmaster, 'if-match': etag }, 'PATCH', `/admin/menu-items/${contact.id}`, { externalUrl: url });
        assert.equal(patched.statusCode, 400, JSON.stringify(url));
        assert.deepEqual([patched.json().code, patched.json().field], ['validation', 'externalUrl']);
        if (!url.includes('\u0000')) assert.deepEqual(patched.json(), refusal(protocol));
      }
      assert.deepEqual(await stored(), before, 'nothing refused was written');
      assert.equal(await storedVersion(db), version);

      // A NONE item turned EXTERNAL with a script link is refused the same way.
      const none = (await inject(app, asWebmaster, 'POST', items, { label: 'Rubrique', linkType: 'NONE' })).json();
      const etag = String((await inject(app, asWebmaster, 'GET', `/admin/menu-items/${none.id}`)).headers.etag);
      const turned = await inject(app, { ...asWebmaster, 'if-match': etag }, 'PATCH', `/admin/menu-items/${none.id}`, { linkType: 'EXTERNAL', externalUrl: 'javascript:alert(1)' });
      assert.deepEqual(turned.json(), refusal('javascript:'));

      // A valid link moves to another valid scheme.
      const read = await inject(app, asWebmaster, 'GET', `/admin/menu-items/${contact.id}`);
      const moved = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/menu-items/${contact.id}`, { externalUrl: 'tel:+33298001122' });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().externalUrl, 'tel:+33298001122');
      const header = (await app.inject('/public/cms/sites/brest-proprete/menus/header')).json();
      assert.deepEqual(
        header.items.map((i: { externalUrl: string | null }) => i.externalUrl).filter((url: string | null) => url !== null).sort(),
        ['tel:+33298001122', ...ACCEPTED.slice(1)].sort(),
        'citizens see every valid link as stored',
      );

      // A script link stored before writes refused them (an older version, a hand-made row) is never served.
      const legacy = (await inject(app, asWebmaster, 'POST', items, { label: 'Ancien piège', linkType: 'EXTERNAL', externalUrl: 'https://brest.fr/x' })).json();
      await db.updateTable('menu_item').set({ external_url: ' JaVaScRiPt:alert(1)' }).where('id', '=', legacy.id).execute();
      const touched = await inject(app, { ...asWebmaster, 'if-match': '*' }, 'PATCH', `/admin/menu-items/${legacy.id}`, { label: 'Ancien piège (vu)' });
      assert.equal(touched.statusCode, 400, 'a write of the old item must fix its link first');
      await db.updateTable('menu_item').set({ label: 'Ancien piège (vu)' }).where('id', '=', legacy.id).execute();
      const renamed = await inject(app, { ...asWebmaster, 'if-match': String(moved.headers.etag) }, 'PATCH', `/admin/menu-items/${contact.id}`, { label: 'Contact' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const served = (await app.inject('/public/cms/sites/brest-proprete/menus/header')).json();
      assert.ok(served.items.some((i: { label: string }) => i.label === 'Contact'), 'the menu was read again after the change');
      assert.ok(!served.items.some((i: { label: string }) => i.label.startsWith('Ancien piège')), 'the script link is left out');
    });

    it('bundle: a link of another scheme is a fault at the item’s path, nothing written; mailto and tel import', async (t) => {
      const { database } = await buildTestApp(t, kind);
      const nested = 'sites[0].menus[0].items[1].children[0].externalUrl';
      for (const [url, protocol] of REFUSED) {
        const bundle = validBundle();
        bundle.sites![0].menus![0].items![1].children![0].externalUrl = url;
        const dir = await writeBundleDir(t, bundle);
        await assert.rejects(importBundle(database, bundle, { baseDir: dir.dir, mediaDir: dir.mediaDir, now: new Date() }), (err: unknown) => {
          assert.ok(err instanceof BundleValidationError);
          assert.deepEqual(err.faults, [{ path: nested, message: `doit être un lien http, https, mailto ou tel (« ${protocol} » n’est pas accepté)` }], JSON.stringify(url));
          return true;
        });
      }
      assert.equal((await database.db.selectFrom('menu_item').select('id').execute()).length, 0, 'nothing written');
      assert.equal((await database.db.selectFrom('site').select('id').execute()).length, 0, 'all or nothing');

      const bundle = validBundle();
      const items = bundle.sites![0].menus![0].items!;
      const ademe = items[1].children!.find((item) => item.id === bundleIds.itemExternal)!;
      ademe.externalUrl = 'mailto:dechets@val-test.example';
      items.push({ id: '93000000-0000-4000-8000-0000000000c1', label: 'Appeler', linkType: 'EXTERNAL', externalUrl: 'tel:+33298000000', order: 3 });
      const dir = await writeBundleDir(t, bundle);
      await importBundle(database, bundle, { baseDir: dir.dir, mediaDir: dir.mediaDir, now: new Date() });
      const links = await database.db.selectFrom('menu_item').select('external_url').where('external_url', 'is not', null).orderBy('external_url').execute();
      assert.deepEqual(links.map((l) => l.external_url), ['mailto:dechets@val-test.example', 'tel:+33298000000']);
    });
  });
}
