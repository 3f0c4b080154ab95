import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { CHAT_IDS as ids, importChatBundle } from '../helpers/chat-fixtures.ts';
import { rowCountingDatabase } from '../helpers/query-counter.ts';

/**
 * A conversation asks about one city message after message: its data is read once, then kept until public data
 * changes or a minute passes, as the public answers are.
 */

const NOW = '2026-11-23T08:00:00.000Z';

for (const kind of testDatabaseKinds()) {
  describe(`the city data the assistant answers from (${kind})`, () => {
    it('is read once for several messages, and again once public data changed or a minute passed', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      // Rows of the city's waste types read: only reading the city's data reads them (counting every query would count
      // the data-version poll too).
      const { counter, database } = rowCountingDatabase(base, 'waste_type');
      const clock = fixedClock(NOW);
      const { app } = await buildTestApp(t, kind, { clock, database });
      await importChatBundle(t, base);
      // The import moved the data version: let this instance see it now rather than at its next poll.
      await app.dataChanged();
      const created = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: `cache-${kind}-device`, cityId: ids.city } });
      const send = async () => {
        counter.rows = 0;
        const res = await app.inject({ method: 'POST', url: `/public/chat/conversations/${created.json().id}/messages`, payload: { content: 'Quand passent les ordures ?' } });
        assert.equal(res.statusCode, 201);
        return { content: res.json().content as string, read: counter.rows > 0 };
      };

      assert.equal((await send()).read, true);
      const second = await send();
      assert.equal(second.read, false, 'kept');
      assert.match(second.content, /Ordures ménagères : mardi 24 novembre 2026/);

      await base.db.updateTable('waste_type').set({ name: 'Déchets résiduels' }).where('id', '=', ids.wasteTypeHousehold).execute();
      await app.dataChanged();
      const changed = await send();
      assert.equal(changed.read, true, 'read again once public data changed');
      assert.match(changed.content, /Déchets résiduels : mardi 24 novembre 2026/);
      assert.equal((await send()).read, false, 'kept again');

      clock.set('2026-11-23T08:01:01.000Z');
      assert.equal((await send()).read, true, 'read again after a minute');
    });
  });
}
