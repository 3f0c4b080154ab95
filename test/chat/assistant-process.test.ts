import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { freePort } from '../helpers/net.ts';
import { startServer, waitReady } from '../helpers/server-process.ts';
import { CHAT_IDS as ids, importChatBundle } from '../helpers/chat-fixtures.ts';

/**
 * The assistant's worker thread loads its TypeScript module under plain `node` (as production runs it, types
 * stripped by Node), not only under tsx; and SIGTERM still stops the process cleanly once a worker runs.
 */

describe('the assistant worker in a real process', () => {
  it('answers a 2,000-character message from a worker thread and stops on SIGTERM', async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-worker-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const database = await openDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(database.db);
    await importChatBundle(t, database);
    await database.close();

    const port = await freePort();
    const child = startServer(dataDir, port, { NODE_OPTIONS: '' });
    t.after(() => child.proc.kill('SIGKILL'));
    await waitReady(port, child);
    const base = `http://127.0.0.1:${port}`;
    const post = (url: string, body: unknown) =>
      fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = await post('/public/chat/conversations', { deviceId: 'worker-process-device', cityId: ids.city });
    assert.equal(created.status, 201, child.output());
    const { id } = (await created.json()) as { id: string };
    const long = `${'Bonjour, une question sur ma poubelle. '.repeat(50).slice(0, 1960)} Quand passent les ordures ?`;
    const answered = await post(`/public/chat/conversations/${id}/messages`, { content: long });
    assert.equal(answered.status, 201, child.output());
    assert.match(((await answered.json()) as { content: string }).content, /Ordures ménagères : /);
    assert.match(child.output(), /chat assistant worker started/);

    child.proc.kill('SIGTERM');
    assert.equal(await child.exited, 0, child.output());
  });
});
