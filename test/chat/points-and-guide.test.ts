import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { demoGuideApp } from '../helpers/guide-fixtures.ts';
import type { Database } from '../../src/db/database.ts';
import { loadCityKnowledge } from '../../src/chat/repository.ts';
import { runTool } from '../../src/chat/llm-tools.ts';

/**
 * The built-in assistant on the demo data: « la déchèterie est-elle ouverte ? » answered yes or no with the
 * next change, from the same evaluation as GET /public/cities/:cityId/recycling-points (checked against it), and
 * « où jeter une capsule de café » from the sorting guide's ranked search, a typo's best hit said as a guess.
 */

/** Monday 23 November 2026, 12:30 in Brest: the déchèteries' lunch break (winter hours), the glass banks open. */
const MONDAY_LUNCH = '2026-11-23T11:30:00.000Z';
/** Saturday 28 November 2026, 18:00: the déchèteries closed until Monday 9:00. */
const SATURDAY_EVENING = '2026-11-28T17:00:00.000Z';
const NBSP = '\u00a0';

for (const kind of testDatabaseKinds()) {
  describe(`assistant: points open now and the ranked sorting guide (${kind})`, () => {
    let app: FastifyInstance;
    let database: Database;
    let brestId: string;
    let clock: Awaited<ReturnType<typeof demoGuideApp>>['clock'];
    const cleanups: (() => Promise<void>)[] = [];
    let device = 0;

    before(async () => {
      const built = await demoGuideApp(cleanups, kind, MONDAY_LUNCH);
      ({ app, clock, database } = built);
      brestId = built.cityIds.get('Brest')!;
    });
    after(async () => {
      for (const fn of cleanups.reverse()) await fn();
    });

    /** The assistant's answer to one message of a new conversation in Brest. */
    async function ask(content: string): Promise<string> {
      const created = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: `device-points-${process.pid}-${++device}`, cityId: brestId } });
      assert.equal(created.statusCode, 201, created.body);
      const res = await app.inject({ method: 'POST', url: `/public/chat/conversations/${created.json().id}/messages`, payload: { content } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().content as string;
    }

    const pointsNow = async () =>
      (await app.inject(`/public/cities/${brestId}/recycling-points`)).json() as { name: string; openNow: boolean; nextChange: string | null }[];

    it('answers whether the déchèteries are open now, and when that changes, as the points endpoint computes it', async () => {
      clock.set(MONDAY_LUNCH);
      const points = await pointsNow();
      const spernot = points.find((p) => p.name === 'Déchèterie du Spernot')!;
      assert.deepEqual([spernot.openNow, spernot.nextChange], [false, '2026-11-23T13:00:00.000Z']);
      for (const question of ['la déchèterie est-elle ouverte ?', 'la decheterie est elle ouverte', 'dechetterie ouverte ?']) {
        const answer = await ask(question);
        assert.match(answer, new RegExp(`^À Brest :\\n- non, Déchèterie du Spernot : fermé en ce moment, ouverture aujourd’hui à 14${NBSP}h\\.`), question);
        assert.match(answer, new RegExp(`- non, Déchèterie du Vern : fermé en ce moment, ouverture aujourd’hui à 14${NBSP}h\\.`), question);
        assert.doesNotMatch(answer, /verre/, question);
      }
    });

    it('answers for the one déchèterie named, with typos and no accents, and on another day', async () => {
      clock.set(SATURDAY_EVENING);
      const vern = (await pointsNow()).find((p) => p.name === 'Déchèterie du Vern')!;
      assert.deepEqual([vern.openNow, vern.nextChange], [false, '2026-11-30T08:00:00.000Z']);
      const answer = await ask('est-ce que la dechetterie du vern est ouverte maintenant');
      assert.match(answer, new RegExp(`^Non, Déchèterie du Vern : fermé en ce moment, ouverture lundi 30 novembre à 9${NBSP}h\\.\\nHoraires : `));
      assert.doesNotMatch(answer, /Spernot/);
      // The glass banks close at 22:00; the textile bank never does.
      assert.match(await ask('le conteneur à verre Anatole France est ouvert ?'), new RegExp(`^Oui, Point d'apport volontaire verre – Rue Anatole France : ouvert en ce moment, fermeture aujourd’hui à 22${NBSP}h\\.`));
      assert.match(await ask('la borne textile est ouverte ?'), /^Oui, Borne textile – supermarché : ouvert en ce moment, à toute heure\./);
      clock.set(MONDAY_LUNCH);
    });

    it('still answers the hours, not the state now, when a day or « quand » is asked', async () => {
      assert.match(await ask('la déchèterie est ouverte le dimanche ?'), /Fermée le dimanche/);
      assert.doesNotMatch(await ask('quand est-ce que la déchèterie est ouverte ?'), /en ce moment/);
    });

    it('answers « où jeter une capsule de café » from the ranked search, never the coffee grounds', async () => {
      for (const question of ['où jeter une capsule de café', 'ou jeter une capsul de cafe', 'où mettre les capsules de café ?']) {
        const answer = await ask(question);
        assert.match(answer, /^« Capsules de café ou de thé » : Emballages et papiers\./, question);
        assert.doesNotMatch(answer, /Café \(marc\)|Je pense/, question);
      }
      assert.match(await ask('où jeter un carton à pizza'), /^« Boîte à pizza » : Emballages et papiers\./);
    });

    it('says a typo’s best hit is a guess, and never presents another material as exact', async () => {
      const answer = await ask('ou jeter des pille');
      assert.match(answer, /^Je pense que vous cherchez « Pile jetable » : le guide de tri de Brest ne cite pas exactement ce que vous avez écrit\./);
      assert.doesNotMatch(answer, /Médicaments/);
      const guide = (await app.inject(`/public/cities/${brestId}/sorting-guide?q=pille`)).json() as { material: string }[];
      assert.equal(guide[0].material, 'Pile jetable');
    });

    it('answers a point named by its words with its hours on the day asked, and says a point no name holds is unknown', async () => {
      clock.set(MONDAY_LUNCH);
      const h = (time: string) => time.replace(/ /g, NBSP);
      const table: [question: string, answer: string][] = [
        ['les horaires de la déchèterie du Vern samedi prochain', `Déchèterie du Vern, samedi 28 novembre${NBSP}: ouvert de ${h('9 h')} à ${h('17 h 30')}.`],
        ['la déchèterie du Spernot est ouverte demain ?', `Déchèterie du Spernot, demain, mardi 24 novembre${NBSP}: ouvert de ${h('9 h')} à ${h('12 h')} et de ${h('14 h')} à ${h('17 h 30')}.`],
        ['la dechetterie du vern est ouverte le 25 décembre ?', `Déchèterie du Vern, vendredi 25 décembre${NBSP}: fermé ce jour-là (jour férié${NBSP}: Noël).`],
        ['la déchèterie du Vern ouvre dimanche ?', `Déchèterie du Vern, dimanche 29 novembre${NBSP}: fermé ce jour-là.`],
        ['horaires de la borne textile samedi', `Borne textile – supermarché, samedi 28 novembre${NBSP}: accessible toute la journée.`],
      ];
      for (const [question, expected] of table) assert.equal(await ask(question), expected, question);
      assert.match(
        await ask('jusqu’à quelle heure est ouvert le point d’apport de la rue Anatole France ?'),
        new RegExp(`^Oui, Point d'apport volontaire verre – Rue Anatole France : ouvert en ce moment, fermeture aujourd’hui à 22${NBSP}h\\.`),
      );
      const unknown = await ask('jusqu’à quelle heure est ouvert le point d’apport de la gare ?');
      assert.match(unknown, new RegExp(`^Je ne trouve pas de point de collecte «${NBSP}gare${NBSP}» à Brest\\.`));
      assert.match(unknown, /- Déchèterie du Vern\n/);
      assert.doesNotMatch(unknown, /en ce moment|Horaires/);
    });

    it('answers a follow-up that is only a day with the point just asked about’s hours on that day', async () => {
      clock.set(MONDAY_LUNCH);
      const h = (time: string) => time.replace(/ /g, NBSP);
      // Its own client address: the chat's per-address limit is the other tests'.
      const remoteAddress = '198.51.100.24';
      const created = await app.inject({ method: 'POST', url: '/public/chat/conversations', remoteAddress, payload: { deviceId: `device-points-${process.pid}-${++device}`, cityId: brestId } });
      assert.equal(created.statusCode, 201, created.body);
      const say = async (content: string) => {
        const res = await app.inject({ method: 'POST', url: `/public/chat/conversations/${created.json().id}/messages`, remoteAddress, payload: { content } });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().content as string;
      };
      assert.equal(await say('les horaires de la déchèterie du Vern samedi prochain'), `Déchèterie du Vern, samedi 28 novembre${NBSP}: ouvert de ${h('9 h')} à ${h('17 h 30')}.`);
      const conversation: [question: string, answer: string][] = [
        ['et demain ?', `Déchèterie du Vern, demain, mardi 24 novembre${NBSP}: ouvert de ${h('9 h')} à ${h('12 h')} et de ${h('14 h')} à ${h('17 h 30')}.`],
        ['et le 25 décembre ?', `Déchèterie du Vern, vendredi 25 décembre${NBSP}: fermé ce jour-là (jour férié${NBSP}: Noël).`],
        ['et dimanche ?', `Déchèterie du Vern, dimanche 29 novembre${NBSP}: fermé ce jour-là.`],
        ['et samedi prochain ?', `Déchèterie du Vern, samedi 28 novembre${NBSP}: ouvert de ${h('9 h')} à ${h('17 h 30')}.`],
      ];
      for (const [question, expected] of conversation) assert.equal(await say(question), expected, question);
      // After the state now, a day names the day too; the Spernot is never the Vern.
      const other = await app.inject({ method: 'POST', url: '/public/chat/conversations', remoteAddress, payload: { deviceId: `device-points-${process.pid}-${++device}`, cityId: brestId } });
      const otherSay = async (content: string) =>
        (await app.inject({ method: 'POST', url: `/public/chat/conversations/${other.json().id}/messages`, remoteAddress, payload: { content } })).json().content as string;
      assert.match(await otherSay('la déchèterie du Spernot est ouverte ?'), /^Non, Déchèterie du Spernot : fermé en ce moment/);
      assert.equal(await otherSay('et demain ?'), `Déchèterie du Spernot, demain, mardi 24 novembre${NBSP}: ouvert de ${h('9 h')} à ${h('12 h')} et de ${h('14 h')} à ${h('17 h 30')}.`);
    });

    it('never sends a dangerous object to a household bin on a near match of another object', async () => {
      const table: [question: string, must: RegExp[], mustNot: RegExp][] = [
        ['Et une bouteille de gaz, je la mets où ?', [/^Attention, déchet dangereux/, /magasin qui vend la même marque/, /Déchèterie du Vern/, /parler à un agent/], /Bouteille en verre|Verre\./],
        ['une bonbonne de propane, poubelle jaune ?', [/^Attention, déchet dangereux/, /bouteille ou une cartouche de gaz/], /Emballages et papiers\./],
        ['où jeter une fusée de détresse périmée ?', [/^Attention, déchet dangereux/, /matériel nautique/], /Ordures ménagères|Déchèteries de Brest/],
        ['bidon de white spirit', [/^Attention, déchet dangereux/, /emballage d’origine/, /- Produit chimique/], /Emballages et papiers\./],
        ['un extincteur, ça va où ?', [/^Attention, déchet dangereux/, /extincteur/], /Ordures ménagères\./],
        // An entry of the object's own family is the answer.
        ['où jeter mes piles ?', [/^« Pile jetable » : Déchèterie\./], /Attention/],
        ['je jette mes médicaments où ?', [/^« Médicaments » : Pharmacie\./], /Attention/],
        ['huile de vidange', [/^« Huile de vidange » : Déchèterie\./], /Attention/],
      ];
      for (const [question, must, mustNot] of table) {
        const answer = await ask(question);
        for (const pattern of must) assert.match(answer, pattern, question);
        assert.doesNotMatch(answer, mustNot, question);
      }
    });

    it('gives the language model the same state and the same ranked search through its tools', async () => {
      const now = new Date(MONDAY_LUNCH);
      const knowledge = (await loadCityKnowledge(database.db, brestId, now))!;
      const state = { knowledge, place: null, namedPlace: null, handoff: false, now };
      const points = runTool(state, 'recycling_points', '{"query":"déchèterie"}') as { name: string; openNow: boolean | null; nextChange: string | null }[];
      assert.deepEqual(
        points.map((p) => [p.name, p.openNow, p.nextChange]),
        [['Déchèterie du Spernot', false, `aujourd’hui à 14${NBSP}h`], ['Déchèterie du Vern', false, `aujourd’hui à 14${NBSP}h`]],
      );
      const capsule = runTool(state, 'find_material', '{"query":"capsule de café"}') as { found: { material: string } | null };
      assert.equal(capsule.found?.material, 'Capsules de café ou de thé');
      const typo = runTool(state, 'find_material', '{"query":"pille"}') as { found: null; closest: { material: string } };
      assert.equal(typo.found, null);
      assert.equal(typo.closest.material, 'Pile jetable');
    });
  });
}
