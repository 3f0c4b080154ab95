import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

/**
 * POST /admin/content/check: the console's MDX editor asks, while the agent types, whether a save would be accepted,
 * and gets the same line, column and French sentence a save's 400 would carry; nothing is stored.
 */
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
  });
}
