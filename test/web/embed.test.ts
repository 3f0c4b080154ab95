// The widgets' files as a commune's website and a browser get them (docs/widgets.md), without a browser: /widget.js
// small, cached an hour, touching no cookie nor storage; each /embed/KIND page framable by this origin and by the
// sites of its commune's group alone, a change of that list holding at the next load; a commune that is unknown or not
// published, a kind that does not exist: a French 404 page nobody may frame; the apps and the API still framed by none.
// test/web/widgets.test.ts embeds them in Chromium from a second origin.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { ensureWebBuilt } from '../helpers/web-fixtures.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';

const KINDS = ['calendrier', 'tri', 'points', 'demande'];
const frameAncestors = (csp: unknown) => /frame-ancestors ([^;]+)/.exec(String(csp))?.[1];

for (const kind of browserDatabaseKinds()) {
  describe(`widgets' files (${kind})`, () => {
    it('serves /widget.js as a small classic script, cached an hour, that reads no cookie nor storage', async (t) => {
      ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      const res = await app.inject('/widget.js');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /javascript/);
      assert.equal(res.headers['cache-control'], 'public, max-age=3600');
      assert.equal(res.headers['set-cookie'], undefined);
      const gz = gzipSync(res.body, { level: 9 }).length;
      assert.ok(gz <= 3 * 1024, `widget.js is ${gz} bytes gzipped`);
      // A classic script: no module syntax a plain <script> would refuse.
      assert.doesNotMatch(res.body, /^\s*(import|export)\s/m);
      assert.doesNotMatch(res.body, /document\.cookie|localStorage|sessionStorage|indexedDB/);
      assert.match(res.body, /\/embed\//);
      // Sent compressed as built, when the browser accepts it.
      const br = await app.inject({ url: '/widget.js', headers: { 'accept-encoding': 'br' } });
      assert.equal(br.headers['content-encoding'], 'br');
    });

    it('lets this origin and the group’s sites frame each /embed page, and no one else', async (t) => {
      ensureWebBuilt();
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      for (const widget of KINDS) {
        const res = await app.inject(`/embed/${widget}?city=${ids.brest}&color=%23ffcc00`);
        assert.equal(res.statusCode, 200, `${widget}: ${res.body.slice(0, 200)}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.match(res.body, /<html lang="fr">/);
        assert.match(res.body, /<div id="app">/);
        assert.equal(frameAncestors(res.headers['content-security-policy']), "'self'", widget);
        assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
        assert.equal(res.headers['x-frame-options'], undefined, `${widget}: X-Frame-Options would forbid every frame`);
        assert.equal(res.headers['cache-control'], 'no-cache');
        assert.equal(res.headers['set-cookie'], undefined);
      }
      // The group lists two sites: both may frame the pages, at the next load.
      await database.db
        .updateTable('city_group')
        .set({ embed_origins: ['https://www.plouzane.fr', 'https://mairie.guipavas.fr:8443'] })
        .where('id', '=', ids.group)
        .execute();
      const listed = await app.inject(`/embed/demande?city=${ids.brest}&type=encombrants`);
      assert.equal(frameAncestors(listed.headers['content-security-policy']), "'self' https://www.plouzane.fr https://mairie.guipavas.fr:8443");
      // The request widget's own « Mes demandes », reached by its links, under the same policy.
      const mine = await app.inject(`/embed/demande/mes-demandes/${ids.brest}?city=${ids.brest}`);
      assert.equal(mine.statusCode, 200);
      assert.equal(frameAncestors(mine.headers['content-security-policy']), "'self' https://www.plouzane.fr https://mairie.guipavas.fr:8443");
      // A commune of no group has no site to list: 'self' alone.
      const lonely = await app.inject(`/embed/tri?city=${ids.lonely}`);
      assert.equal(lonely.statusCode, 200);
      assert.equal(frameAncestors(lonely.headers['content-security-policy']), "'self'");

      // The apps and the API are still framed by no one.
      for (const url of ['/', '/tri', '/console', `/public/cities/${ids.brest}`, '/docs']) {
        const res = await app.inject(url);
        assert.equal(frameAncestors(res.headers['content-security-policy']), "'none'", url);
      }
    });

    it('answers a French 404 page nobody may frame for a commune unknown or unpublished, or a kind that does not exist; 400 without a commune', async (t) => {
      ensureWebBuilt();
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      for (const url of [
        `/embed/calendrier?city=${ids.inactive}`,
        '/embed/tri?city=00000000-0000-4000-8000-00000000dead',
        '/embed/tri?city=brest',
        `/embed/agenda?city=${ids.brest}`,
      ]) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 404, url);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.match(res.body, /Ce module Collecte n’existe pas/, url);
        assert.equal(frameAncestors(res.headers['content-security-policy']), "'none'", url);
      }
      const missing = await app.inject('/embed/tri');
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().field, 'city');
      assert.match(missing.json().message, /city/);
    });
  });
}
