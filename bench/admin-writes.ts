import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { bumpDataVersion } from '../src/db/data-version.ts';
import { timedLoops } from './processes.ts';

/**
 * The admin write path's baseline: the statements an admin PATCH cannot do without, sent straight through
 * the same driver at the same concurrency: in one transaction, the record locked, changed, its audit entry written
 * and the data version bumped. What the service adds (the token, the group check, validation, the record read back
 * for its ETag and the answer) is what the ratio measures.
 */

export type RawAdminWrite = 'waste type' | 'exception';

export async function measureRawAdminWrites(options: {
  databaseUrl: string | null;
  dataDir: string;
  kind: RawAdminWrite;
  id: string;
  concurrency: number;
  durationS: number;
}): Promise<{ rps: number; p50: number; p99: number }> {
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: path.resolve(options.dataDir), poolSize: 10 });
  const { db } = database;
  let n = 0;
  const write = () =>
    db.transaction().execute(async (trx) => {
      const text = `Brut ${++n}`;
      const table = options.kind === 'waste type' ? 'waste_type' : 'collection_exception';
      const before = await trx.selectFrom(table).selectAll().where('id', '=', options.id).forUpdate().executeTakeFirstOrThrow();
      const after =
        options.kind === 'waste type'
          ? await trx.updateTable('waste_type').set({ description: text }).where('id', '=', options.id).returningAll().executeTakeFirstOrThrow()
          : await trx.updateTable('collection_exception').set({ description: text }).where('id', '=', options.id).returningAll().executeTakeFirstOrThrow();
      await trx
        .insertInto('audit_entry')
        .values({
          id: randomUUID(),
          at: new Date(),
          user_id: null,
          user_name: 'bench',
          action: 'update',
          entity: options.kind === 'waste type' ? 'wasteType' : 'exception',
          entity_id: options.id,
          city_group_ids: [],
          before: JSON.stringify(before),
          after: JSON.stringify(after),
        })
        .execute();
      await bumpDataVersion(trx, new Date());
    });
  try {
    return await timedLoops(options.concurrency, options.durationS, write);
  } finally {
    await database.close();
  }
}

/** The bench's account: a super admin created with the CLI, as an operator would. */
export const BENCH_ADMIN = { email: 'bench@collecte.invalid', password: 'bench-password-0123456789' };

/** An access token of the bench's account. */
export async function adminToken(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/**
 * Milliseconds from an admin PATCH of the waste type's description (answered 200) until `readPort`'s public city
 * shows it: the same instance, or another one on the same database.
 */
export async function timeToVisible(options: { writePort: number; readPort: number; token: string; cityId: string; wasteTypeId: string }): Promise<number> {
  const text = `Visible ${randomUUID()}`;
  const res = await fetch(`http://127.0.0.1:${options.writePort}/admin/waste-types/${options.wasteTypeId}`, {
    method: 'PATCH',
    // `*`: whatever version is there (every admin PATCH carries If-Match; the bench writes without reading first).
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}`, 'if-match': '*' },
    body: JSON.stringify({ description: text }),
  });
  if (res.status !== 200) throw new Error(`PATCH waste type: ${res.status} ${await res.text()}`);
  const written = performance.now();
  for (;;) {
    const body = await (await fetch(`http://127.0.0.1:${options.readPort}/public/cities/${options.cityId}`)).text();
    if (body.includes(text)) return Math.round(performance.now() - written);
    if (performance.now() - written > 30_000) throw new Error('the change never reached the public city');
    await new Promise((r) => setTimeout(r, 5));
  }
}
