// The place of a conversation as agents read it (GET /chat/conversations/:id): the commune, the collection place and
// its next collections per waste type, for any agent of the conversation's group, CITIES or not; never a place of
// another group.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities, uuid } from '../helpers/city-fixtures.ts';
import { agentToken, bearer, consoleEnv, insertConversation, otherIds, seedOtherGroup } from '../helpers/console-fixtures.ts';

// Thursday 24 December 2026, 11 h in Paris: Christmas and New Year's Day cancel the Friday collections of the
// fixtures' Centre-ville (src: test/helpers/city-fixtures.ts).
const NOW = '2026-12-24T10:00:00.000Z';

async function setup(t: Parameters<typeof buildTestApp>[0], kind: Parameters<typeof buildTestApp>[1]) {
  const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock: fixedClock(NOW) });
  await seedCities(database.db);
  await seedOtherGroup(database.db);
  // The packaging collection of Wednesday 6 January moves to the Thursday.
  await database.db
    .insertInto('collection_exception')
    .values({
      id: uuid(), place_id: ids.placeCentre, kind: 'MOVE', date_from: '2027-01-06T11:00:00.000Z', date_to: null,
      moved_to: '2027-01-07T11:00:00.000Z', waste_type_id: ids.wasteEmb, name: 'Travaux', description: 'Rue fermée',
    })
    .execute();
  return { app, db: database.db };
}

const collection = (date: string, status = 'PLANNED', note: string | null = null, originalDate: string | null = null) => ({ date, status, originalDate, note });

for (const kind of testDatabaseKinds()) {
  describe(`Console conversation place (${kind})`, () => {
    it('gives an agent without CITIES the commune, the place and its next collections with their exceptions', async (t) => {
      const { app, db } = await setup(t, kind);
      const headers = bearer(await agentToken({ permissions: ['CHAT_CONVERSATIONS'] }, { now: new Date(NOW) }));
      const id = await insertConversation(db, { placeId: ids.placeCentre, status: 'WAITING_AGENT' });

      const res = await app.inject({ url: `/chat/conversations/${id}`, headers });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().cityName, 'Brest');
      assert.equal(res.json().placeId, ids.placeCentre);
      assert.deepEqual(res.json().place, {
        id: ids.placeCentre,
        name: 'Centre-ville',
        nextCollections: [
          {
            wasteTypeId: ids.wasteOm,
            wasteTypeName: 'Ordures ménagères',
            color: '#424242',
            // Three collections that take place, and the cancelled ones among them.
            collections: [
              collection('2026-12-25', 'CANCELLED', 'Noël – Collecte reportée'),
              collection('2026-12-28'),
              collection('2027-01-01', 'CANCELLED', 'Jour de l’an'),
              collection('2027-01-04'),
              collection('2027-01-08'),
            ],
          },
          {
            wasteTypeId: ids.wasteEmb,
            wasteTypeName: 'Emballages',
            color: '#F2C500',
            collections: [collection('2027-01-07', 'MOVED', 'Travaux – Rue fermée', '2027-01-06'), collection('2027-01-20'), collection('2027-02-03')],
          },
        ],
      });
      // Glass is collected at another place of Brest only: not listed here.
    });

    it('says the commune alone when the citizen gave no place, and never shows a place of another city', async (t) => {
      const { app, db } = await setup(t, kind);
      const headers = bearer(await agentToken({}, { now: new Date(NOW) }));
      const none = await insertConversation(db);
      const noPlace = await app.inject({ url: `/chat/conversations/${none}`, headers });
      assert.equal(noPlace.statusCode, 200);
      assert.equal(noPlace.json().cityName, 'Brest');
      assert.equal(noPlace.json().place, null);

      // A place of another group's city on a conversation of Brest (what the chat never stores): not read.
      const quimperPlace = uuid();
      await db.insertInto('collection_place').values({ id: quimperPlace, city_id: otherIds.city, name: 'Quimper Centre' }).execute();
      const mixed = await insertConversation(db, { placeId: quimperPlace });
      const read = await app.inject({ url: `/chat/conversations/${mixed}`, headers });
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().place, null);
      assert.doesNotMatch(read.body, /Quimper/);
    });

    it('answers 404 to an agent of another group and 403 to a token without CHAT_CONVERSATIONS, with no place in either', async (t) => {
      const { app, db } = await setup(t, kind);
      const id = await insertConversation(db, { placeId: ids.placeCentre });
      const other = bearer(await agentToken({ sub: 'agent-9', cityGroupIds: [otherIds.group] }, { now: new Date(NOW) }));
      const outside = await app.inject({ url: `/chat/conversations/${id}`, headers: other });
      assert.equal(outside.statusCode, 404);
      assert.equal(outside.json().code, 'conversationNotFound');
      assert.doesNotMatch(outside.body, /Centre-ville|Brest/);

      const citiesOnly = bearer(await agentToken({ permissions: ['CITIES'] }, { now: new Date(NOW) }));
      const refused = await app.inject({ url: `/chat/conversations/${id}`, headers: citiesOnly });
      assert.equal(refused.statusCode, 403);
      assert.doesNotMatch(refused.body, /Centre-ville/);
    });
  });
}
