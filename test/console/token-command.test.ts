import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { runCollecte } from '../helpers/server-process.ts';
import { CONSOLE_SECRET, bearer, consoleEnv, insertConversation, otherIds } from '../helpers/console-fixtures.ts';

/** Runs `collecte console-token` as an operator would; the exit code is in `code`. */
const consoleToken = (args: string[], secret: string | null) =>
  runCollecte(['console-token', ...args], { CONSOLE_JWT_SECRET: secret ?? undefined });

const key = new TextEncoder().encode(CONSOLE_SECRET);

for (const kind of testDatabaseKinds()) {
  describe(`console-token command (${kind})`, () => {
    it('prints an HS256 token with the agent’s claims, verified with jose and accepted by the console', async (t) => {
      const before = Math.floor(Date.now() / 1000);
      const out = await consoleToken(
        ['--sub', 'agent-42', '--name', 'Yann Le Gall', '--city-group', ids.group, '--city-group', otherIds.group.toUpperCase(), '--ttl', '2h'],
        CONSOLE_SECRET,
      );
      assert.equal(out.code, 0, out.stderr);
      const token = out.stdout.trim();
      assert.equal(out.stdout, `${token}\n`, 'only the token is printed, so that it can be piped');
      assert.equal(decodeProtectedHeader(token).alg, 'HS256');
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      assert.equal(payload.sub, 'agent-42');
      assert.equal(payload.name, 'Yann Le Gall');
      assert.deepEqual(payload.permissions, ['CHAT_CONVERSATIONS']);
      assert.deepEqual(payload.cityGroupIds, [ids.group, otherIds.group]);
      assert.ok(payload.iat! >= before && payload.iat! <= Math.floor(Date.now() / 1000));
      assert.equal(payload.exp! - payload.iat!, 2 * 3600);
      await assert.rejects(jwtVerify(token, new TextEncoder().encode('another-secret-0123456789abcdefghij')));

      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const id = await insertConversation(database.db, { status: 'WAITING_AGENT' });
      const inbox = await app.inject({ url: '/chat/inbox', headers: bearer(token) });
      assert.equal(inbox.statusCode, 200);
      assert.deepEqual(inbox.json().data.map((c: { id: string }) => c.id), [id]);

      const defaults = await consoleToken(['--sub', 'a', '--name', 'A', '--city-group', ids.group], CONSOLE_SECRET);
      assert.equal(defaults.code, 0, defaults.stderr);
      const { payload: short } = await jwtVerify(defaults.stdout.trim(), key);
      assert.equal(short.exp! - short.iat!, 8 * 3600);
    });
  });
}

// Touches no database: run once.
describe('console-token command: failures', () => {
  it('fails clearly without CONSOLE_JWT_SECRET or with bad options, printing no token', async () => {
    const noSecret = await consoleToken(['--sub', 'a', '--name', 'A', '--city-group', ids.group], null);
    assert.equal(noSecret.code, 1);
    assert.equal(noSecret.stdout, '');
    assert.match(noSecret.stderr, /CONSOLE_JWT_SECRET is not set/);

    const cases: [string[], RegExp][] = [
      [['--name', 'A', '--city-group', ids.group], /--sub is required/],
      [['--sub', 'a', '--city-group', ids.group], /--name is required/],
      [['--sub', 'a', '--name', 'A'], /at least one --city-group/],
      [['--sub', 'a', '--name', 'A', '--city-group', 'brest'], /--city-group must be a UUID, got "brest"/],
      [['--sub', 'a', '--name', 'A', '--city-group', ids.group, '--ttl', 'forever'], /--ttl must be a duration/],
      [['--sub', 'a', '--name', 'A', '--city-group', ids.group, '--ttl', '31d'], /at most 30d/],
      [['--sub', 'a', '--name', 'A', '--city-group', ids.group, '--admin'], /Unknown option '--admin'/],
    ];
    for (const [args, message] of cases) {
      const out = await consoleToken(args, CONSOLE_SECRET);
      assert.equal(out.code, 2, args.join(' '));
      assert.equal(out.stdout, '');
      assert.match(out.stderr, message);
      assert.match(out.stderr, /Usage: npm run collecte -- console-token/);
    }
  });
});
