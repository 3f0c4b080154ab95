import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { openDatabase, type Database, type DatabaseKind } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { authEnv, postLogin } from '../helpers/auth-fixtures.ts';
import { runCollecte } from '../helpers/server-process.ts';

/** Runs `collecte user ARGS` as an operator would, with `stdin` piped in, against `env`'s database. */
const collecteUser = (args: string[], stdin: string, env: Record<string, string>) =>
  runCollecte(['user', ...args], { DATABASE_URL: undefined, ...env }, stdin);

/**
 * A database the command and the test share: an embedded one in a directory (the test opens it once the command is
 * done), or a PostgreSQL schema of its own, named to the command through the connection's search_path.
 */
async function sharedDatabase(
  t: { after: (fn: () => Promise<void>) => void },
  kind: DatabaseKind,
): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (kind === 'pglite') {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-user-'));
    t.after(() => fs.rm(dataDir, { recursive: true, force: true }));
    const open = () => openDatabase({ databaseUrl: null, dataDir });
    const seeding = await open();
    await migrateToLatest(seeding.db);
    await seedCities(seeding.db);
    await seeding.close();
    return { env: { DATA_DIR: dataDir }, open };
  }
  const database = await createTestDatabase(kind);
  t.after(() => database.close());
  await seedCities(database.db);
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${database.schema}`);
  return { env: { DATABASE_URL: url.toString() }, open: async () => ({ ...database, close: async () => {} }) as Database };
}

const EMAIL = 'Premiere.Admin@Collecte.fr';
const PASSWORD = 'une phrase de passe solide';

for (const kind of testDatabaseKinds()) {
  describe(`collecte user create (${kind})`, () => {
    it('creates an account with the password read from stdin, prints it as JSON, and the account can log in', async (t) => {
      const shared = await sharedDatabase(t, kind);
      const out = await collecteUser(
        ['create', '--email', EMAIL, '--name', 'Première Admin', '--super-admin', '--permission', 'USERS', '--permission', 'CHAT_CONVERSATIONS', '--city-group', ids.group],
        `${PASSWORD}\n`,
        shared.env,
      );
      assert.equal(out.code, 0, out.stderr);
      const printed = JSON.parse(out.stdout);
      assert.equal(printed.email, 'premiere.admin@collecte.fr');
      assert.deepEqual(printed.permissions, ['CHAT_CONVERSATIONS', 'USERS']);
      assert.equal(printed.superAdmin, true);
      assert.deepEqual(printed.cityGroupIds, [ids.group]);
      assert.doesNotMatch(out.stdout, /argon|phrase/);

      const again = await collecteUser(['create', '--email', 'premiere.admin@collecte.fr', '--name', 'Double', '--super-admin'], `${PASSWORD}\n`, shared.env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /nothing was created: Le champ «\u00a0email\u00a0» désigne déjà un compte/);
      const unknownGroup = await collecteUser(['create', '--email', 'b@collecte.fr', '--name', 'B', '--city-group', '00000000-0000-4000-8000-00000000dead'], `${PASSWORD}\n`, shared.env);
      assert.equal(unknownGroup.code, 1);
      assert.match(unknownGroup.stderr, /groupement introuvable/);

      const database = await shared.open();
      try {
        const rows = await database.db.selectFrom('account').select(['email', 'password_hash']).execute();
        assert.deepEqual(rows.map((r) => r.email), ['premiere.admin@collecte.fr']);
        assert.match(rows[0].password_hash, /^\$argon2id\$/);
        const audit = await database.db.selectFrom('audit_entry').select(['user_id', 'action', 'entity']).execute();
        assert.deepEqual(audit, [{ user_id: null, action: 'create', entity: 'user' }]);
        const app = await buildApp({ config: testConfig(authEnv), database });
        try {
          const login = await postLogin(app, EMAIL, PASSWORD);
          assert.equal(login.statusCode, 200, login.body);
          assert.equal(login.json().user.id, printed.id);
        } finally {
          await app.close();
        }
      } finally {
        await database.close();
      }
    });
  });
}

// Refused before the database is opened: run once.
describe('collecte user create: refusals', () => {
  it('exits 2 with the usage for bad options, 1 for a short password, creating nothing', async () => {
    const env = { DATA_DIR: path.join(os.tmpdir(), 'collecte-user-never-opened') };
    const good = ['create', '--email', 'a@collecte.fr', '--name', 'A', '--city-group', ids.group];
    const cases: [string[], string, RegExp][] = [
      [[], PASSWORD, /give a subcommand: create/],
      [['create', '--name', 'A', '--city-group', ids.group], PASSWORD, /--email is required/],
      [['create', '--email', 'pas-une-adresse', '--name', 'A', '--city-group', ids.group], PASSWORD, /--email must be an e-mail address/],
      [['create', '--email', 'a@collecte.fr', '--name', 'A'], PASSWORD, /at least one --city-group \(or --super-admin\)/],
      [[...good, '--permission', 'ROOT'], PASSWORD, /--permission must be one of CITIES, CHALLENGES/],
      [[...good, '--admin'], PASSWORD, /Unknown option '--admin'/],
      [good, '', /no password on standard input/],
    ];
    for (const [args, password, message] of cases) {
      const out = await collecteUser(args, password ? `${password}\n` : '', env);
      assert.equal(out.code, 2, `${args.join(' ')}: ${out.stderr}`);
      assert.equal(out.stdout, '');
      assert.match(out.stderr, message);
      assert.match(out.stderr, /Usage: npm run collecte -- user create/);
    }
    const short = await collecteUser(good, 'onze carac.\n', env);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /the password must have 12 to 1024 characters, it has 11; nothing was created/);
    await assert.rejects(fs.access(env.DATA_DIR), 'the database was never opened');
  });
});
