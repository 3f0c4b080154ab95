import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import type { Database } from '../../src/db/database.ts';
import { loadCityKnowledge } from '../../src/chat/repository.ts';
import { runTool } from '../../src/chat/llm-tools.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import {
  insertCalendarCity,
  insertCityGroup,
  insertCollectionDays,
  insertExceptions,
  insertPlace,
  insertWasteType,
  setHolidayRules,
} from '../helpers/calendar-fixtures.ts';

/**
 * The assistant answers where a collection was moved to (docs/api.md, collections that move and service notices), through the public chat routes: the
 * next collections come from the calendar engine with the exceptions (a MOVE, an ADD) and the group's holiday rules
 * applied, and « la collecte de Noël est décalée à quel jour ? » names the new day, or says the collection is
 * cancelled or kept. And « la déchèterie est ouverte ? » on Good Friday, in Alsace-Moselle and elsewhere.
 */

const NBSP = '\u00a0';
/** Tuesday 22 December 2026, 09:00 in Paris. */
const TUESDAY = '2026-12-22T08:00:00.000Z';

/**
 * Plougastel, one place (Le Bourg): household waste and packaging on Fridays, glass on Mondays. Its group moves every
 * holiday's collections to the next day, keeps household waste on New Year's Day and cancels packaging that day; an
 * exception moves Christmas's packaging to Saturday (it wins over the rule), another adds a glass collection on
 * Christmas Eve.
 */
async function movingCity(db: Kysely<DB>) {
  const groupId = await insertCityGroup(db, 'Pays de Plougastel');
  await db.updateTable('city_group').set({ chat_enabled: true }).where('id', '=', groupId).execute();
  const cityId = await insertCalendarCity(db, { cityGroupId: groupId, name: 'Plougastel' });
  const ordures = await insertWasteType(db, cityId, 'Ordures ménagères', '#6b7280');
  const emballages = await insertWasteType(db, cityId, 'Emballages', '#facc15');
  const verre = await insertWasteType(db, cityId, 'Verre', '#16a34a');
  const placeId = await insertPlace(db, cityId, 'Le Bourg');
  await insertCollectionDays(db, placeId, [
    { name: 'vendredi', wasteTypeId: ordures },
    { name: 'vendredi', wasteTypeId: emballages },
    { name: 'lundi', wasteTypeId: verre },
  ]);
  await setHolidayRules(db, groupId, [
    { holiday: '*', wasteTypeId: null, action: 'NEXT_DAY' },
    { holiday: 'jour-de-l-an', wasteTypeId: ordures, action: 'KEEP' },
    { holiday: 'jour-de-l-an', wasteTypeId: emballages, action: 'CANCEL' },
  ]);
  await insertExceptions(db, placeId, [
    { kind: 'MOVE', wasteTypeId: emballages, dateFrom: '2026-12-24T23:00:00.000Z', movedTo: '2026-12-25T23:00:00.000Z', name: 'Fêtes de fin d’année' },
    { kind: 'ADD', wasteTypeId: verre, dateFrom: '2026-12-23T23:00:00.000Z', name: 'Tournée des réveillons' },
  ]);
  return { cityId, placeId };
}

/** A city of one place and one déchèterie `Mo-Sa 09:00-18:00; PH off`, on a holiday calendar. */
async function cityWithCentre(db: Kysely<DB>, name: string, holidayCalendar: 'FR' | 'FR-ALSACE-MOSELLE') {
  const groupId = await insertCityGroup(db, `Communauté de ${name}`);
  await db.updateTable('city_group').set({ chat_enabled: true }).where('id', '=', groupId).execute();
  const cityId = await insertCalendarCity(db, { cityGroupId: groupId, name, holidayCalendar });
  await insertPlace(db, cityId, 'Centre');
  await db
    .insertInto('recycling_point')
    .values({
      id: randomUUID(),
      city_id: cityId,
      name: 'Déchèterie intercommunale',
      address: null,
      latitude: null,
      longitude: null,
      opening_hours: 'Du lundi au samedi, 9 h – 18 h ; fermée les jours fériés.',
      opening_hours_spec: 'Mo-Sa 09:00-18:00; PH off',
      kind: 'CENTRE',
    })
    .execute();
  return cityId;
}

for (const kind of testDatabaseKinds()) {
  describe(`the assistant and collections that move (${kind})`, () => {
    let app: FastifyInstance;
    let database: Database;
    const clock = fixedClock(TUESDAY);
    const cities = new Map<string, string>();
    const cleanups: (() => Promise<void>)[] = [];
    let devices = 0;

    before(async () => {
      const built = await buildTestApp({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, kind, { clock });
      ({ app, database } = built);
      cities.set('Plougastel', (await movingCity(built.database.db)).cityId);
      cities.set('Saverne', await cityWithCentre(built.database.db, 'Saverne', 'FR-ALSACE-MOSELLE'));
      cities.set('Quimper', await cityWithCentre(built.database.db, 'Quimper', 'FR'));
    });
    after(async () => {
      for (const fn of cleanups.reverse()) await fn();
    });

    /** A new conversation in a city (its only place is the conversation's), and a function that says one message. */
    async function conversation(city = 'Plougastel') {
      const res = await app.inject({
        method: 'POST',
        url: '/public/chat/conversations',
        payload: { deviceId: `moves-${kind}-${++devices}`, cityId: cities.get(city) },
      });
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().id as string;
      return async (content: string) => {
        const sent = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content } });
        assert.equal(sent.statusCode, 201, sent.body);
        return sent.json().content as string;
      };
    }

    it('lists the next collections with moves and additions applied, on their new day', async () => {
      clock.set(TUESDAY);
      const say = await conversation();
      const answer = await say('quand passent les poubelles ?');
      const lines = answer.split('\n');
      assert.equal(lines[0], 'Prochaines collectes à Le Bourg (Plougastel) :');
      assert.deepEqual(lines.slice(1, 4), [
        '- Verre : jeudi 24 décembre 2026, collecte supplémentaire (Tournée des réveillons)',
        // Both of Christmas's Friday collections are on Saturday: one by the exception, one by the group's rule.
        '- Emballages : samedi 26 décembre 2026, reportée du vendredi 25 décembre (Fêtes de fin d’année)',
        '- Ordures ménagères : samedi 26 décembre 2026, reportée du vendredi 25 décembre (Noël)',
      ]);
      assert.doesNotMatch(answer, /vendredi 25 décembre 2026/, 'Christmas is no collection day any more');
    });

    it('leaves a cancelled collection out of the next ones, and says why', async () => {
      clock.set('2026-12-28T08:00:00.000Z');
      const say = await conversation();
      const answer = await say('quand passent les emballages ?');
      assert.match(answer, /^- Emballages : vendredi 8 janvier 2027$/m);
      assert.doesNotMatch(answer, /- Emballages : vendredi 1er janvier/);
      assert.match(answer, /À noter : Jour de l'an – pas de collecte « Emballages » le vendredi 1er janvier 2027\./);
    });

    it('names the new day of a day’s collections, by the exception’s name or the holiday rule', async () => {
      clock.set(TUESDAY);
      const say = await conversation();
      const answer = await say('la collecte de Noël est décalée à quel jour ?');
      assert.equal(
        answer.split('\n').slice(0, 3).join('\n'),
        [
          `À Le Bourg (Plougastel)${NBSP}:`,
          `La collecte des emballages du vendredi 25 décembre est reportée au samedi 26 décembre 2026${NBSP}: Fêtes de fin d’année.`,
          'La collecte des ordures ménagères du vendredi 25 décembre est reportée au samedi 26 décembre 2026 (Noël).',
        ].join('\n'),
      );
      // « et le verre ? » follows on: the same day, for glass, which is not collected on Fridays.
      const glass = await say('et le verre ?');
      assert.match(glass, /^Aucune collecte du verre n’était prévue le vendredi 25 décembre 2026 à Le Bourg \(Plougastel\)\.$/m);
      assert.match(glass, /^- Verre : lundi 28 décembre 2026$/m);
    });

    it('answers « quand passe le camion après le 25 décembre ? » with where that day’s collections went', async () => {
      clock.set(TUESDAY);
      const say = await conversation();
      const answer = await say('quand passe le camion après le 25 décembre ?');
      assert.match(answer, /La collecte des emballages du vendredi 25 décembre est reportée au samedi 26 décembre 2026/);
      assert.match(answer, /La collecte des ordures ménagères du vendredi 25 décembre est reportée au samedi 26 décembre 2026 \(Noël\)\./);
    });

    it('says a holiday’s collection is kept as usual, or cancelled with the next one', async () => {
      clock.set(TUESDAY);
      const say = await conversation();
      const answer = await say('le ramassage du 1er janvier est maintenu ?');
      assert.ok(
        answer.includes(
          `La collecte des emballages du vendredi 1er janvier 2027 est annulée (Jour de l'an). Prochaine collecte des emballages${NBSP}: vendredi 8 janvier 2027.`,
        ),
        answer,
      );
      assert.ok(answer.includes(`La collecte des ordures ménagères du vendredi 1er janvier 2027 (Jour de l'an) est maintenue${NBSP}: elle a lieu comme d’habitude.`), answer);
    });

    it('follows on the conversation: « elle est reportée quand ? » after a question about a stream', async () => {
      clock.set(TUESDAY);
      const say = await conversation();
      await say('quand passent les emballages ?');
      const answer = await say('elle est reportée quand ?');
      assert.deepEqual(answer.split('\n'), [
        `Changements prévus à Le Bourg dans les deux prochains mois${NBSP}:`,
        `- La collecte des emballages du vendredi 25 décembre est reportée au samedi 26 décembre 2026${NBSP}: Fêtes de fin d’année.`,
        '- vendredi 1er janvier 2027 (Jour de l\'an), Emballages : pas de collecte.',
      ]);
    });

    it('gives the language model the same facts through its tools', async () => {
      const now = new Date(TUESDAY);
      const knowledge = (await loadCityKnowledge(database.db, cities.get('Plougastel')!, now))!;
      const call = (name: string, args: Record<string, unknown>) =>
        runTool({ knowledge, place: null, namedPlace: null, handoff: false, now }, name, JSON.stringify(args)) as Record<string, unknown>;
      const next = call('next_collections', { waste_type: 'emballages' }) as { collections: { dateText: string; change: string | null }[] };
      assert.deepEqual(next.collections.map((c) => [c.dateText, c.change]), [['samedi 26 décembre 2026', 'reportée du vendredi 25 décembre (Fêtes de fin d’année)']]);
      assert.deepEqual(call('collection_changes', { date: '2026-12-25' }), {
        place: 'Le Bourg',
        date: 'vendredi 25 décembre 2026',
        changes: [
          `La collecte des emballages du vendredi 25 décembre est reportée au samedi 26 décembre 2026${NBSP}: Fêtes de fin d’année.`,
          'La collecte des ordures ménagères du vendredi 25 décembre est reportée au samedi 26 décembre 2026 (Noël).',
        ],
      });
      assert.deepEqual((call('collection_changes', { waste_type: 'verre' }) as { changes: string[] }).changes, [
        `Une collecte supplémentaire du verre a lieu le jeudi 24 décembre 2026${NBSP}: Tournée des réveillons.`,
      ]);
    });

    describe('open now on a holiday of Alsace-Moselle only', () => {
      const ask = async (city: string, at: string) => {
        clock.set(at);
        const say = await conversation(city);
        return say('la déchèterie est ouverte ?');
      };

      it('is closed on Good Friday and on 26 December in Alsace-Moselle, and open elsewhere', async () => {
        // Friday 26 March 2027 and Saturday 26 December 2026, at noon in Paris.
        for (const at of ['2027-03-26T11:00:00.000Z', '2026-12-26T11:00:00.000Z']) {
          assert.match(await ask('Saverne', at), /^Non, Déchèterie intercommunale : fermé en ce moment, ouverture /, at);
          assert.match(await ask('Quimper', at), /^Oui, Déchèterie intercommunale : ouvert en ce moment, fermeture aujourd’hui à 18/, at);
        }
        assert.match(await ask('Saverne', '2027-03-26T11:00:00.000Z'), /ouverture demain à 9\u00a0h\./);
        assert.match(await ask('Saverne', '2026-12-26T11:00:00.000Z'), /ouverture lundi 28 décembre à 9\u00a0h\./);
      });
    });
  });
}
