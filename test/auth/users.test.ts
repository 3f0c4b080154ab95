import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { PASSWORD, authEnv, createAccount, loginHeaders, postLogin } from '../helpers/auth-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Compte introuvable', error: 'Not Found', code: 'userNotFound', field: null };

/** A super admin, an agent managing the accounts of `ids.group`, and accounts around them. */
async function seedAccounts(db: Kysely<DB>) {
  await seedCities(db);
  const root = await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
  const manager = await createAccount(db, { email: 'manager@brest.fr', name: 'Gaëlle Manager', permissions: ['CITIES', 'CHAT_CONVERSATIONS', 'USERS'] });
  const colleague = await createAccount(db, { email: 'colleague@brest.fr', name: 'Yann Colleague', permissions: ['CHAT_CONVERSATIONS'] });
  const outsider = await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', cityGroupIds: [ids.emptyGroup] });
  const both = await createAccount(db, { email: 'both@aber.fr', name: 'Both Groups', cityGroupIds: [ids.group, ids.emptyGroup] });
  const editor = await createAccount(db, { email: 'editor@brest.fr', name: 'Éditrice', permissions: ['CMS'] });
  return { root, manager, colleague, outsider, both, editor };
}

async function setup(t: Parameters<typeof buildTestApp>[0], kind: Parameters<typeof buildTestApp>[1]) {
  const { app, database } = await buildTestApp(t, kind, { env: authEnv });
  const accounts = await seedAccounts(database.db);
  const asRoot = await loginHeaders(app, 'root@collecte.fr');
  const asManager = await loginHeaders(app, 'manager@brest.fr');
  return { app, db: database.db, accounts, asRoot, asManager };
}

const inject = (app: FastifyInstance, headers: Record<string, string>, method: string, url: string, payload?: object) =>
  app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });

for (const kind of testDatabaseKinds()) {
  describe(`/admin/users (${kind})`, () => {
    it('lets a super admin create, read (with an ETag), list, change and delete accounts, never showing a password', async (t) => {
      const { app, asRoot, accounts } = await setup(t, kind);
      const created = await inject(app, asRoot, 'POST', '/admin/users', {
        email: 'Nouvelle.Agente@Brest.fr',
        name: ' Nouvelle Agente ',
        password: 'douze caractères',
        permissions: ['USERS', 'BLOG_POSTS', 'USERS'],
        cityGroupIds: [ids.group.toUpperCase()],
      });
      assert.equal(created.statusCode, 201, created.body);
      const user = created.json();
      assert.deepEqual({ ...user, id: undefined, createdAt: undefined }, {
        id: undefined, email: 'nouvelle.agente@brest.fr', name: 'Nouvelle Agente', permissions: ['BLOG_POSTS', 'USERS'],
        cityGroupIds: [ids.group], superAdmin: false, active: true, createdAt: undefined, lastLoginAt: null,
      });
      assert.equal(created.headers['cache-control'], 'no-store');
      assert.doesNotMatch(created.body, /argon|password/i);
      assert.equal((await postLogin(app, 'nouvelle.agente@brest.fr', 'douze caractères')).statusCode, 200);

      const read = await inject(app, asRoot, 'GET', `/admin/users/${user.id}`);
      assert.equal(read.statusCode, 200);
      assert.match(String(read.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
      assert.equal(read.json().lastLoginAt === null, false, 'the login above is shown');
      const notModified = await inject(app, { ...asRoot, 'if-none-match': String(read.headers.etag) }, 'GET', `/admin/users/${user.id}`);
      assert.equal(notModified.statusCode, 304);

      const list = await inject(app, asRoot, 'GET', '/admin/users?pageSize=3&page=2');
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().meta, { page: 2, pageSize: 3, total: 7, totalPages: 3 });
      const names = (await inject(app, asRoot, 'GET', '/admin/users')).json().data.map((u: { name: string }) => u.name);
      assert.deepEqual(names, ['Aber Agent', 'Both Groups', 'Éditrice', 'Gaëlle Manager', 'Nouvelle Agente', 'Root', 'Yann Colleague']);

      const patched = await inject(app, { ...asRoot, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/users/${user.id}`, { name: 'Agente Renommée', active: false });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().name, 'Agente Renommée');
      assert.equal(patched.json().active, false);
      assert.equal(patched.json().email, 'nouvelle.agente@brest.fr');
      assert.notEqual(patched.headers.etag, read.headers.etag);

      const deleted = await inject(app, { ...asRoot, 'if-match': String(patched.headers.etag) }, 'DELETE', `/admin/users/${user.id}`);
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/users/${user.id}`)).json(), NOT_FOUND);
      // A super admin reaches every account, super admins and several groups' ones included.
      for (const account of [accounts.both, accounts.outsider, accounts.root]) {
        assert.equal((await inject(app, asRoot, 'GET', `/admin/users/${account.id}`)).statusCode, 200);
      }
    });

    it('answers 401 without a token and 403 without the USERS permission, on every route, writing nothing', async (t) => {
      const { app, db, accounts } = await setup(t, kind);
      const asEditor = await loginHeaders(app, 'editor@brest.fr');
      const routes = [
        ['GET', '/admin/users'],
        ['GET', `/admin/users/${accounts.colleague.id}`],
        ['POST', '/admin/users', { email: 'x@brest.fr', name: 'X', password: PASSWORD, cityGroupIds: [ids.group] }],
        ['PATCH', `/admin/users/${accounts.colleague.id}`, { name: 'Changé' }],
        ['DELETE', `/admin/users/${accounts.colleague.id}`],
      ] as const;
      const before = await db.selectFrom('account').selectAll().orderBy('id').execute();
      for (const [method, url, payload] of routes) {
        const anonymous = await app.inject({ method, url, ...(payload ? { payload } : {}) });
        assert.equal(anonymous.statusCode, 401, `${method} ${url}`);
        assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
        assert.match(anonymous.json().message, /Authorization: Bearer/);
        const forbidden = await inject(app, asEditor, method, url, payload);
        assert.deepEqual(forbidden.json(), { statusCode: 403, message: 'Votre compte n’a pas la permission USERS.', error: 'Forbidden', code: 'adminPermission', field: null });
      }
      assert.deepEqual(await db.selectFrom('account').selectAll().orderBy('id').execute(), before);
    });

    it('lets an agent manage the accounts of its own groups only: any other answers 404, as if missing', async (t) => {
      const { app, asManager, accounts } = await setup(t, kind);
      const list = (await inject(app, asManager, 'GET', '/admin/users')).json();
      assert.deepEqual(list.data.map((u: { email: string }) => u.email), ['editor@brest.fr', 'manager@brest.fr', 'colleague@brest.fr']);
      assert.equal(list.meta.total, 3);
      for (const theirs of [accounts.outsider, accounts.both, accounts.root]) {
        for (const [method, payload] of [['GET'], ['PATCH', { name: 'Changé' }], ['DELETE']] as const) {
          const headers = method === 'GET' ? asManager : { ...asManager, 'if-match': '*' };
          const res = await inject(app, headers, method, `/admin/users/${theirs.id}`, payload);
          const unknown = await inject(app, headers, method, `/admin/users/${UNKNOWN}`, payload);
          assert.deepEqual(res.json(), NOT_FOUND, `${method} ${theirs.email}`);
          assert.deepEqual(unknown.json(), NOT_FOUND);
        }
      }
      const colleagueUrl = `/admin/users/${accounts.colleague.id}`;
      const etag = String((await inject(app, asManager, 'GET', colleagueUrl)).headers.etag);
      const colleague = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', colleagueUrl, { name: 'Yann Le Gall' });
      assert.equal(colleague.statusCode, 200, colleague.body);
      assert.equal((await inject(app, asManager, 'GET', '/admin/users/not-a-uuid')).statusCode, 400);
    });

    it('lets an agent give only what it holds, and change only accounts whose permissions it all holds', async (t) => {
      const { app, db, asManager, accounts } = await setup(t, kind);
      const base = { email: 'nouveau@brest.fr', name: 'Nouveau', password: PASSWORD, cityGroupIds: [ids.group] };
      const refusals: [string, string, object, number, RegExp][] = [
        ['POST', '/admin/users', { ...base, permissions: ['CMS'] }, 403, /ne peut pas contenir CMS/],
        ['POST', '/admin/users', { ...base, cityGroupIds: [ids.group, ids.emptyGroup] }, 403, /vos propres groupements/],
        ['POST', '/admin/users', { ...base, superAdmin: true }, 403, /super administrateur/],
        ['POST', '/admin/users', { ...base, cityGroupIds: [] }, 400, /au moins un groupement/],
        ['PATCH', `/admin/users/${accounts.colleague.id}`, { permissions: ['CHAT_CONVERSATIONS', 'BLOG_POSTS'] }, 403, /BLOG_POSTS/],
        ['PATCH', `/admin/users/${accounts.colleague.id}`, { cityGroupIds: [ids.emptyGroup] }, 403, /vos propres groupements/],
        ['PATCH', `/admin/users/${accounts.colleague.id}`, { superAdmin: true }, 403, /super administrateur/],
        ['PATCH', `/admin/users/${accounts.editor.id}`, { name: 'Changé' }, 403, /permissions que le vôtre n’a pas/],
        ['DELETE', `/admin/users/${accounts.editor.id}`, {}, 403, /permissions que le vôtre n’a pas/],
        ['PATCH', `/admin/users/${accounts.manager.id}`, { active: false }, 400, /votre propre compte/],
        ['DELETE', `/admin/users/${accounts.manager.id}`, {}, 400, /votre propre compte/],
      ];
      const before = await db.selectFrom('account').selectAll().orderBy('id').execute();
      for (const [method, url, payload, status, message] of refusals) {
        const headers = method === 'POST' ? asManager : { ...asManager, 'if-match': '*' };
        const res = await inject(app, headers, method, url, method === 'DELETE' ? undefined : payload);
        assert.equal(res.statusCode, status, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`);
        assert.match(res.json().message, message);
      }
      assert.deepEqual(await db.selectFrom('account').selectAll().orderBy('id').execute(), before);
      assert.equal((await db.selectFrom('audit_entry').selectAll().where('user_id', 'is not', null).execute()).length, 0);
      const created = await inject(app, asManager, 'POST', '/admin/users', { ...base, permissions: ['CHAT_CONVERSATIONS', 'CITIES'] });
      assert.equal(created.statusCode, 201, created.body);
    });

    it('refuses a taken e-mail (409, whatever its case), a short password (400 naming it) and an unknown group (400)', async (t) => {
      const { app, asRoot, accounts } = await setup(t, kind);
      const base = { name: 'Nouveau', password: PASSWORD, cityGroupIds: [ids.group] };
      const taken = await inject(app, asRoot, 'POST', '/admin/users', { ...base, email: 'COLLEAGUE@brest.fr' });
      assert.equal(taken.statusCode, 409);
      assert.match(taken.json().message, /«\u00a0email\u00a0» désigne déjà un compte/);
      const moved = await inject(app, { ...asRoot, 'if-match': '*' }, 'PATCH', `/admin/users/${accounts.editor.id}`, { email: 'Colleague@Brest.fr' });
      assert.equal(moved.statusCode, 409);
      for (const payload of [{ password: 'onze carac.' }]) {
        for (const [method, url] of [['POST', '/admin/users'], ['PATCH', `/admin/users/${accounts.colleague.id}`]] as const) {
          const headers = method === 'PATCH' ? { ...asRoot, 'if-match': '*' } : asRoot;
          const res = await inject(app, headers, method, url, { ...base, email: 'nouveau@brest.fr', ...payload });
          assert.equal(res.statusCode, 400);
          assert.match(res.json().message, /«\s?password\s?» doit contenir au moins 12/);
        }
      }
      const unknownGroup = await inject(app, asRoot, 'POST', '/admin/users', { ...base, email: 'nouveau@brest.fr', cityGroupIds: [UNKNOWN] });
      assert.equal(unknownGroup.statusCode, 400);
      assert.match(unknownGroup.json().message, /groupement introuvable/);
      const badPermission = await inject(app, asRoot, 'POST', '/admin/users', { ...base, email: 'nouveau@brest.fr', permissions: ['ROOT'] });
      assert.equal(badPermission.statusCode, 400);
      assert.match(badPermission.json().message, /permissions\[0\]/);
    });

    it('answers 412 to a stale If-Match; of two PATCHes sent at once with the same If-Match, one wins', async (t) => {
      const { app, db, asRoot, asManager, accounts } = await setup(t, kind);
      const url = `/admin/users/${accounts.colleague.id}`;
      const etag = String((await inject(app, asManager, 'GET', url)).headers.etag);
      const answers = await Promise.all([
        inject(app, { ...asManager, 'if-match': etag }, 'PATCH', url, { name: 'Premier' }),
        inject(app, { ...asRoot, 'if-match': etag }, 'PATCH', url, { name: 'Second' }),
      ]);
      assert.deepEqual(answers.map((res) => res.statusCode).sort(), [200, 412]);
      const lost = answers.find((res) => res.statusCode === 412)!;
      assert.equal(lost.json().error, 'Precondition Failed');
      assert.match(lost.json().message, /If-Match/);
      const won = answers.find((res) => res.statusCode === 200)!;
      const stored = await db.selectFrom('account').select('name').where('id', '=', accounts.colleague.id).executeTakeFirstOrThrow();
      assert.equal(stored.name, won.json().name);
      assert.equal((await db.selectFrom('audit_entry').selectAll().where('action', '=', 'update').execute()).length, 1);

      // The stale tag is refused by DELETE too; the current one or `*` are accepted; no If-Match at all is 428.
      assert.equal((await inject(app, { ...asRoot, 'if-match': etag }, 'DELETE', url)).statusCode, 412);
      const blind = await inject(app, asRoot, 'PATCH', url, { name: 'Aveugle' });
      assert.equal(blind.statusCode, 428);
      assert.equal(blind.json().code, 'preconditionRequired');
      assert.equal(blind.json().error, 'Precondition Required');
      assert.equal((await inject(app, { ...asRoot, 'if-match': `W/${won.headers.etag}` }, 'PATCH', url, { name: 'Faible' })).statusCode, 412);
      assert.equal((await inject(app, { ...asRoot, 'if-match': `"x", ${won.headers.etag}` }, 'PATCH', url, { name: 'Trois' })).statusCode, 200);
      assert.equal((await inject(app, { ...asRoot, 'if-match': '*' }, 'PATCH', url, { name: 'Quatre' })).statusCode, 200);
      // A password change moves the ETag although the account reads the same.
      const current = String((await inject(app, asRoot, 'GET', url)).headers.etag);
      const password = await inject(app, { ...asRoot, 'if-match': current }, 'PATCH', url, { password: 'un nouveau mot de passe' });
      assert.equal(password.statusCode, 200);
      assert.notEqual(password.headers.etag, current);
      assert.equal((await inject(app, { ...asRoot, 'if-match': current }, 'DELETE', url)).statusCode, 412);
    });

    it('ends an account’s sessions when its password changes or it is deactivated', async (t) => {
      const { app, asRoot, accounts } = await setup(t, kind);
      const login = await postLogin(app, 'colleague@brest.fr', PASSWORD);
      const cookie = { collecte_refresh: decodeURIComponent(String(login.headers['set-cookie']).split(';')[0].split('=')[1]) };
      const changed = await inject(app, { ...asRoot, 'if-match': '*' }, 'PATCH', `/admin/users/${accounts.colleague.id}`, { password: 'un nouveau mot de passe' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal((await app.inject({ method: 'POST', url: '/auth/refresh', cookies: cookie })).statusCode, 401);
      assert.equal((await postLogin(app, 'colleague@brest.fr', PASSWORD)).statusCode, 401);
      assert.equal((await postLogin(app, 'colleague@brest.fr', 'un nouveau mot de passe')).statusCode, 200);
    });
  });
}
