// The web apps' API types (web/shared/api-types.gen.ts) are generated from GET /openapi.json and committed, so that
// `tsc -p web` and `vite build` need no server. Here they are generated again, in memory, from what the app serves
// now: an API change committed without `npm run build:web-types` fails, naming the first line that moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_TYPES_FILE, renderWebApiTypes, servedOpenApiDocument } from '../../scripts/web-api-types.ts';
import { buildTestApp } from '../helpers/app.ts';

test('web/shared/api-types.gen.ts is what npm run build:web-types generates from the served /openapi.json', async (t) => {
  const { app } = await buildTestApp(t, 'pglite');
  const expected = await renderWebApiTypes(await servedOpenApiDocument(app));
  const committed = fs.readFileSync(GENERATED_TYPES_FILE, 'utf8');
  if (committed === expected) return;
  const [was, now] = [committed.split('\n'), expected.split('\n')];
  const line = was.findIndex((text, i) => text !== now[i]);
  const at = line === -1 ? was.length : line;
  assert.fail(
    `${path.relative(process.cwd(), GENERATED_TYPES_FILE)} is out of date: run \`npm run build:web-types\` and commit it.\n` +
      `First difference, line ${at + 1}:\n  committed: ${was[at] ?? '(end of file)'}\n  generated: ${now[at] ?? '(end of file)'}`,
  );
});
