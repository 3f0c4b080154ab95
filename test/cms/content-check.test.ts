import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

/**
 * POST /admin/content/check: the console's MDX editor asks, while the agent types, whether a save would be accepted,
 * and gets the same line, column and French sentence a save's 400 would carry; nothing is stored. The compiler runs
 * off the event loop, and content nested too deeply for it is refused before it is compiled.
 */

/** 90 KB contents nested far too deeply, each of which held the event loop for seconds when compiled on it. */
const NESTED = [
  { content: '['.repeat(90_000), column: 101 },
  { content: '['.repeat(45_000) + ']'.repeat(45_000), column: 101 },
  { content: '<a>'.repeat(12_857) + '</a>'.repeat(12_857), column: 301 },
  { content: '<a>'.repeat(30_000), column: 301 },
];
const tooNested = (column: number) =>
  `est trop imbriqué (ligne 1, colonne ${column})\u00a0: plus de 100 niveaux de ${column === 101 ? 'crochets' : 'balises'}, simplifiez-le`;

/** 90 KB of ordinary MDX, which takes the compiler about a second (more on a loaded machine). */
const LONG_POST = (
  '## Le tri à Brest\n\nLes **emballages** vont dans le bac jaune, le *verre* dans la colonne : voyez [le guide](https://brest.fr/tri).\n\n' +
  '- bouteilles\n- flacons\n- cartons\n\n> Rincez sans laver.\n\n<Carte ville="brest" />\n\n'
).repeat(413);

/** The app listening on a loopback port, for requests that must really be at the same time. */
async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Resolves once the server has read the whole bodies of `count` requests to `url`: their handlers are under way. */
function bodiesRead(app: FastifyInstance, url: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const onRequest = (request: IncomingMessage) => {
      if (request.url !== url) return;
      request.once('end', () => {
        if (++read < count) return;
        app.server.off('request', onRequest);
        resolve();
      });
    };
    app.server.on('request', onRequest);
  });
}

const check = (base: string, headers: Record<string, string>, content: string) =>
  fetch(`${base}/admin/content/check`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

for (const kind of testDatabaseKinds()) {
  describe(`POST /admin/content/check (${kind})`, () => {
    it('says where MDX breaks, as a save would, for editors of posts and of pages; nothing stored', async (t) => {
      const { app, db, asEditor, asWebmaster, asManager } = await setup(t, kind);
      const version = await storedVersion(db);
      for (const headers of [asEditor, asWebmaster]) {
        const good = await inject(app, headers, 'POST', '/admin/content/check', { content: '# Le tri\n\n:::tip\nRincez sans laver.\n:::\n\n<Carte />' });
        assert.equal(good.statusCode, 200, good.body);
        assert.deepEqual(good.json(), { valid: true, line: null, column: null, message: null });

        const broken = await inject(app, headers, 'POST', '/admin/content/check', { content: '# Titre\n\nb {x\n' });
        assert.deepEqual(broken.json(), {
          valid: false,
          line: 3,
          column: 5,
          message: 'n’est pas du MDX valide (ligne 3, colonne 5)\u00a0: Unexpected end of file in expression, expected a corresponding closing brace for `{`.',
        });
      }
      assert.equal(await storedVersion(db), version, 'a check changes nothing');

      assert.equal((await app.inject({ method: 'POST', url: '/admin/content/check', payload: { content: '' } })).statusCode, 401);
      assert.equal((await inject(app, asManager, 'POST', '/admin/content/check', { content: '' })).statusCode, 403);
      const missing = await inject(app, asEditor, 'POST', '/admin/content/check', {});
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /« content »/);
    });

    it('refuses four deeply nested 90 KB contents at once, where the nesting starts, while /health answers', async (t) => {
      const { app, asEditor } = await setup(t, kind);
      const base = await listening(app);
      const [health, ...checks] = await Promise.all([
        fetch(`${base}/health`).then((response) => response.status),
        ...NESTED.map(({ content }) => check(base, asEditor, content)),
      ]);
      assert.equal(health, 200);
      assert.deepEqual(
        checks,
        NESTED.map(({ column }) => ({ status: 200, body: { valid: false, line: 1, column, message: `${tooNested(column)}.` } })),
      );
    });

    it('compiles off the event loop: /health answers while four long contents are being checked', async (t) => {
      const { app, asEditor } = await setup(t, kind);
      const base = await listening(app);
      const answered: string[] = [];
      const received = bodiesRead(app, '/admin/content/check', 4);
      const checks = [1, 2, 3, 4].map((n) =>
        check(base, asEditor, LONG_POST).then((result) => {
          answered.push(`check ${n}`);
          return result;
        }),
      );
      await received;
      const health = await fetch(`${base}/health`);
      answered.push('health');
      assert.equal(health.status, 200);
      for (const result of await Promise.all(checks)) assert.deepEqual(result, { status: 200, body: { valid: true, line: null, column: null, message: null } });
      assert.notEqual(answered.at(-1), 'health', `/health waited for the compilations (${answered.join(', ')})`);
    });

    it('refuses to save a post or a page nested too deeply (400 naming content), writing nothing', async (t) => {
      const { app, db, asEditor, asWebmaster } = await setup(t, kind);
      const site = (await inject(app, asWebmaster, 'POST', `/admin/city-groups/${ids.group}/sites`, { name: 'Brest Propreté', slug: 'brest-proprete', type: 'SITE' })).json();
      const version = await storedVersion(db);
      const refusal = {
        statusCode: 400,
        error: 'Bad Request',
        message: `Le champ «\u00a0content\u00a0» ${tooNested(101)}.`,
        code: 'validation',
        field: 'content',
      };
      const post = await inject(app, asEditor, 'POST', `/admin/city-groups/${ids.group}/blog-posts`, { title: 'Imbriqué', content: NESTED[0].content });
      assert.deepEqual(post.json(), refusal);
      const page = await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/pages`, { title: 'Imbriquée', slug: 'imbriquee', content: NESTED[1].content });
      assert.deepEqual(page.json(), refusal);
      assert.equal((await db.selectFrom('blog_post').select('id').execute()).length, 0);
      assert.equal((await db.selectFrom('page').select('id').where('site_id', '=', site.id).execute()).length, 0);
      assert.equal(await storedVersion(db), version, 'nothing written');
    });
  });
}
