import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { consoleEnv } from '../helpers/console-fixtures.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { MAX_PAGE } from '../../src/kernel/pagination.ts';

/** Numbers that JavaScript reads as Infinity, -0, NaN or beyond exact integers, and other numbers past any sane bound. */
const OUT_OF_BOUNDS = ['1e309', 'Infinity', '-Infinity', '1e400', '-1e400', '-0', 'NaN', '99999999999999999999', '9007199254740993', String(MAX_PAGE + 1), '1.5'];

interface Parameter {
  in: string;
  name: string;
  schema?: { type?: string; format?: string; pattern?: string; minimum?: number; maximum?: number };
}

/** A real-valued parameter (a latitude) takes -0 and 1.5 rightly: only values out of its range are tested there. */
function isFaultyFor(parameter: Parameter, value: string): boolean {
  if (parameter.schema?.type !== 'number') return true;
  const n = Number(value);
  const { minimum = -Infinity, maximum = Infinity } = parameter.schema;
  return !(Number.isFinite(n) && n >= minimum && n <= maximum);
}

/** A value that passes a path parameter's schema, so that the request reaches the number under test. */
function validPathValue(parameter: Parameter): string {
  if (parameter.schema?.format === 'uuid') return randomUUID();
  if (parameter.schema?.pattern) return 'device-0001';
  return 'x';
}

for (const kind of testDatabaseKinds()) {
  describe(`numbers in query strings and paths (${kind})`, () => {
    it('answer 400 naming the parameter, on every route the API document lists, for Infinity, -0 and numbers past their bound', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      // A token every guard takes: a real account's (tokens for /admin must name one), holding the console's permission
      // for /chat and the super-admin rank for /admin.
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: ['CHAT_CONVERSATIONS'] });
      const headers = await loginHeaders(app, 'root@collecte.fr');
      const spec = (await app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
      const checked: string[] = [];
      for (const [template, operations] of Object.entries(spec.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const parameters = operation.parameters ?? [];
          const numeric = parameters.filter((p) => p.schema?.type === 'integer' || p.schema?.type === 'number');
          if (numeric.length === 0) continue;
          let path = template;
          for (const p of parameters.filter((p) => p.in === 'path')) path = path.replace(`{${p.name}}`, validPathValue(p));
          for (const parameter of numeric) {
            checked.push(`${method.toUpperCase()} ${template} ${parameter.name}`);
            for (const value of OUT_OF_BOUNDS.filter((v) => isFaultyFor(parameter, v))) {
              const url = parameter.in === 'path' ? path.replace(/[^/]+$/, value) : `${path}?${parameter.name}=${encodeURIComponent(value)}`;
              const res = await app.inject({ method: method.toUpperCase() as 'GET', url, headers });
              const where = `${method.toUpperCase()} ${url}`;
              assert.equal(res.statusCode, 400, `${where}: ${res.body}`);
              assert.equal(res.json().error, 'Bad Request', where);
              assert.ok(res.json().message.includes(`« ${parameter.name} »`), `${where}: ${res.json().message}`);
              assert.equal(res.json().code, 'validation', where);
              assert.equal(res.json().field, parameter.name, where);
            }
          }
        }
      }
      for (const expected of [
        'GET /public/cms/sites page',
        'GET /public/cms/sites pageSize',
        'GET /public/cms/sites/{slug}/pages page',
        'GET /public/chat/conversations/{deviceId} page',
        'GET /chat/inbox page',
        'GET /admin/users pageSize',
        'GET /admin/audit page',
        'GET /admin/cities/{cityId}/waste-types page',
        'GET /admin/places/{placeId}/exceptions pageSize',
      ]) {
        assert.ok(checked.includes(expected), `${expected} in ${checked.join(', ')}`);
      }
    });

    it('says the page bound the French way, and still serves the last page allowed', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const past = await app.inject(`/public/cms/sites?page=${MAX_PAGE + 1}`);
      assert.deepEqual(past.json(), {
        statusCode: 400,
        message: 'Le paramètre « page » doit être inférieur ou égal à 100\u202f000.',
        error: 'Bad Request',
        code: 'validation',
        field: 'page',
      });
      for (const page of [String(MAX_PAGE), '1e5']) {
        const last = await app.inject(`/public/cms/sites?page=${page}`);
        assert.equal(last.statusCode, 200, page);
        assert.deepEqual(last.json(), { data: [], meta: { page: MAX_PAGE, pageSize: 20, total: 0, totalPages: 0 } });
      }
    });
  });
}
