// The report form's optional map (docs/operating.md, residents' requests): MAP_TILE_URL and MAP_TILE_ATTRIBUTION as
// the config reads or refuses them, GET /public/requests/config telling the app, and the web app's CSP letting the
// tiles' origin in (and nothing else), exactly as before when no map is configured.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DEFAULT_MAP_TILE_ATTRIBUTION } from '../../src/config.ts';
import { WEB_APP_CSP } from '../../src/http/url-space.ts';
import { buildTestApp, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

const OSM = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The directives of a CSP by name: `img-src` -> its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
}

describe('MAP_TILE_URL and MAP_TILE_ATTRIBUTION', () => {
  it('are unset by default: no map', () => {
    assert.equal(testConfig().mapTiles, null);
    assert.equal(testConfig({ MAP_TILE_URL: '  ' }).mapTiles, null);
  });

  it('read an https template, or an http one on loopback, with OpenStreetMap’s credit unless another is given', () => {
    assert.deepEqual(testConfig({ MAP_TILE_URL: OSM }).mapTiles, { url: OSM, attribution: DEFAULT_MAP_TILE_ATTRIBUTION });
    assert.equal(DEFAULT_MAP_TILE_ATTRIBUTION, '© les contributeurs d’OpenStreetMap');
    const keyed = 'https://tiles.example.fr/plan/{z}/{x}/{y}.png?key=public-key';
    assert.deepEqual(testConfig({ MAP_TILE_URL: keyed, MAP_TILE_ATTRIBUTION: ' © IGN, © OpenStreetMap ' }).mapTiles, {
      url: keyed,
      attribution: '© IGN, © OpenStreetMap',
    });
    for (const local of ['http://127.0.0.1:8080/{z}/{x}/{y}.png', 'http://localhost/tiles/{z}/{y}/{x}']) {
      assert.equal(testConfig({ MAP_TILE_URL: local }).mapTiles?.url, local);
    }
  });

  it('refuse at start what is not one server’s XYZ template over https, naming the variable', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [{ MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}.png' }, /^MAP_TILE_URL must hold \{z\}, \{x\} and \{y\} .*; \{y\} missing$/],
      [{ MAP_TILE_URL: 'https://tile.openstreetmap.org/tiles.png' }, /\{z\}, \{x\}, \{y\} missing$/],
      [{ MAP_TILE_URL: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png' }, /^MAP_TILE_URL may hold only the placeholders \{z\}, \{x\} and \{y\}, got \{s\}/],
      [{ MAP_TILE_URL: 'https://tiles.example.fr/{z}/{x}/{y}{r}.png' }, /got \{r\}/],
      [{ MAP_TILE_URL: 'http://tile.openstreetmap.org/{z}/{x}/{y}.png' }, /^MAP_TILE_URL must use https: \(http: only on localhost or 127\.0\.0\.1\), got http:\/\/tile\.openstreetmap\.org$/],
      [{ MAP_TILE_URL: 'http://10.0.0.5/{z}/{x}/{y}.png' }, /must use https:/],
      [{ MAP_TILE_URL: 'http://[::1]:8080/{z}/{x}/{y}.png' }, /must use https:/],
      [{ MAP_TILE_URL: 'ftp://tiles.example.fr/{z}/{x}/{y}.png' }, /must use https:/],
      [{ MAP_TILE_URL: 'tile.openstreetmap.org/{z}/{x}/{y}.png' }, /^MAP_TILE_URL is not a valid URL$/],
      [{ MAP_TILE_URL: 'https://user:secret@tiles.example.fr/{z}/{x}/{y}.png' }, /^MAP_TILE_URL must not hold a user or password/],
      [{ MAP_TILE_ATTRIBUTION: '© OpenStreetMap' }, /^MAP_TILE_ATTRIBUTION has no use without MAP_TILE_URL/],
    ];
    for (const [env, message] of refusals) {
      assert.throws(() => testConfig(env), (err: Error) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
    }
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`the report form's map at the edge (${kind})`, () => {
    it('says there is no map, and keeps the web app’s CSP as it always was, when MAP_TILE_URL is unset', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const res = await app.inject('/public/requests/config');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { map: null });
      assert.equal(res.headers['content-security-policy'], API_CSP);
      assert.match(String(res.headers['cache-control']), /^public, max-age=\d+/);
      for (const url of ['/signaler', '/', '/nulle-part']) {
        const page = await app.inject({ url, headers: { accept: 'text/html' } });
        assert.equal(page.headers['content-security-policy'], WEB_APP_CSP, url);
      }
      assert.deepEqual(directives(WEB_APP_CSP).get('img-src'), ["'self'", 'data:']);
    });

    it('tells the app the tile server and its credit, and lets that origin alone into the web app’s img-src', async (t) => {
      const url = 'https://tiles.example.fr:8443/plan/{z}/{x}/{y}.png?key=public-key';
      const { app } = await buildTestApp(t, kind, { env: { MAP_TILE_URL: url, MAP_TILE_ATTRIBUTION: '© IGN' } });
      const res = await app.inject('/public/requests/config');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { map: { tileUrl: url, attribution: '© IGN' } });
      // Cached like any public read: the second answer comes from the response cache, the same.
      const again = await app.inject({ url: '/public/requests/config', headers: { 'if-none-match': String(res.headers.etag) } });
      assert.equal(again.statusCode, 304);

      const expected = directives(WEB_APP_CSP);
      expected.set('img-src', ["'self'", 'data:', 'https://tiles.example.fr:8443']);
      // The app's pages, routed or not, and an answer written before any hook (a URL the router cannot decode).
      for (const target of ['/signaler', '/', '/nulle-part', '/communes/%E0%A4%A']) {
        const page = await app.inject({ url: target, headers: { accept: 'text/html' } });
        assert.deepEqual(directives(String(page.headers['content-security-policy'])), expected, target);
      }
      // Nothing else changes: the API's answers keep theirs.
      for (const target of ['/public/city-groups', '/health', '/admin/requests', '/public/nulle-part']) {
        const answer = await app.inject(target);
        assert.equal(answer.headers['content-security-policy'], API_CSP, target);
      }
    });
  });
}
