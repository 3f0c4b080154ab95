import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { moduleGraph } from '../helpers/import-graph.ts';

// Packages that only some requests or some deployments need, loaded at their first use rather than at start: each
// would hold V8 heap (source and compiled code) at rest for nothing, and the server must stay small at rest on a 1 GB
// machine (docs/performance.md). A static import of one of them anywhere the server reaches loads it at start again.

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Each package, with where it is loaded on demand and what needs it. */
const LOADED_ON_DEMAND: Record<string, string> = {
  nodemailer: 'src/domain/mailer.ts, at the first e-mail sent',
  'web-push': 'src/reminders/push.ts, at the first push sent (VAPID keys are made with node:crypto)',
  ioredis: 'src/http/redis.ts, only when REDIS_URL is set',
  opening_hours: "src/domain/opening-hours.ts, at the first recycling point's hours read or checked",
  'fast-xml-parser': 'src/http/open311-errors.ts, at the first Open311 answer or failure in XML',
  '@electric-sql/pglite': 'src/db/database.ts, when an embedded database is opened (never on PostgreSQL)',
};

/** `@scope/name/sub` → `@scope/name`, `pkg/sub` → `pkg`. */
const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe('packages loaded on demand', () => {
  const atStart = moduleGraph(path.join(ROOT, 'src/server.ts'), { dynamic: false });

  it('follows the static imports of the whole server', () => {
    // Without this, a graph that stopped at the first file would pass the test below.
    assert.ok(atStart.files.has(path.join(ROOT, 'src/app.ts')), 'the server reaches the app');
    assert.ok(atStart.files.has(path.join(ROOT, 'src/reminders/push.ts')), 'and the reminders worker');
    assert.ok([...atStart.packages].some((specifier) => packageName(specifier) === 'fastify'));
  });

  it('names packages the server depends on', () => {
    const { dependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of Object.keys(LOADED_ON_DEMAND)) assert.ok(name in dependencies, `${name} is a dependency`);
  });

  it('reaches none of them through static imports from src/server.ts', () => {
    const loaded = [...atStart.packages].filter((specifier) => packageName(specifier) in LOADED_ON_DEMAND);
    assert.deepEqual(
      loaded.map((specifier) => `${specifier} (to be loaded in ${LOADED_ON_DEMAND[packageName(specifier)]})`),
      [],
      'statically imported, hence loaded at start',
    );
  });
});

describe("Node's own modules loaded at start", () => {
  it("leaves out Node's fetch (undici), which node:http imported as an ES module would load", () => {
    // The ES module namespace of node:http reads every export, the lazy WebSocket, CloseEvent and MessageEvent among
    // them, and these load undici: some MiB at rest (src/reminders/push.ts takes node:http's CommonJS exports).
    // Importing src/server.ts loads every module of the server without serving (it serves when run, not imported).
    const script = `import(${JSON.stringify(path.join(ROOT, 'src/server.ts'))}).then(() => {
      process.stdout.write(JSON.stringify(process.moduleLoadList));
    })`;
    const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[];
    assert.ok(loaded.some((name) => name.includes('internal/http2/core')), 'the list holds what Fastify loads');
    assert.deepEqual(loaded.filter((name) => name.includes('undici')), []);
  });
});
