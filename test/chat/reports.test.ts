import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answer, NO_STATE } from '../../src/chat/assistant.ts';
import { KERBRAT_NOW, kerbratKnowledge, kerbratPlace } from './fixtures/knowledge.ts';

/**
 * A report made to the assistant (docs/api.md, resident requests): it cannot file it, so it says which form does, with
 * the place it knows, and never mistakes the report for a question about a collection day or where something goes.
 */

const ask = (text: string, placeName: string | null = null) =>
  answer({ knowledge: kerbratKnowledge(), place: placeName ? kerbratPlace(placeName) : null, history: [], state: NO_STATE, text, now: KERBRAT_NOW });

describe('reports made to the assistant', () => {
  it('points a missed collection to its form, for the place it knows, with the window', () => {
    const reply = ask('Mon bac n’a pas été vidé ce matin, qu’est-ce que je fais ?', 'Bourg');
    assert.match(reply.content, /«\u00a0Signaler un problème\u00a0», puis «\u00a0Collecte non effectuée\u00a0» pour Bourg\./);
    assert.match(reply.content, /à partir de midi le jour de la collecte, pendant 48\u00a0heures/);
    assert.match(reply.content, /«\u00a0Mes demandes\u00a0»/);
    // The form's path, pre-filled with the city and the place, which the app shows as a link.
    const path = /\/signaler\?\S+$/.exec(reply.content)?.[0];
    assert.ok(path, reply.content);
    const query = new URL(path, 'https://app.example').searchParams;
    assert.deepEqual(Object.fromEntries(query), {
      type: 'collecte-non-effectuee',
      cityId: kerbratKnowledge().city.id,
      placeId: kerbratPlace('Bourg').id,
    });
    assert.doesNotMatch(reply.content, /je ne peux pas répondre à cette question/);
    assert.equal(reply.unanswered, false);
  });

  it('chooses the form by what is reported, and names no place for a point or a spot', () => {
    const cases: [string, RegExp][] = [
      ['le couvercle de ma poubelle est cassé', /«\u00a0Bac endommagé\u00a0» pour Bourg/],
      ['on m’a volé mon bac jaune', /«\u00a0Bac volé ou disparu\u00a0» pour Bourg/],
      ['la colonne à verre déborde', /«\u00a0Point d’apport plein\u00a0»\./],
      ['il y a un dépôt sauvage derrière l’école', /«\u00a0Dépôt sauvage\u00a0»\./],
      ['je voudrais un bac plus grand', /«\u00a0Demande de bac\u00a0» pour Bourg/],
    ];
    for (const [text, expected] of cases) assert.match(ask(text, 'Bourg').content, expected, text);
    // A spot or a point is not the resident's place: the form is not pre-filled with it.
    assert.doesNotMatch(ask('il y a un dépôt sauvage derrière l’école', 'Bourg').content, /placeId=/);
    assert.match(ask('il y a un dépôt sauvage derrière l’école', 'Bourg').content, /\/signaler\?type=depot-sauvage&cityId=/);
  });

  it('still answers the questions that use the same words', () => {
    assert.doesNotMatch(ask('quand passe le bac jaune ?', 'Bourg').content, /Signaler un problème/);
    assert.doesNotMatch(ask('où jeter une bouteille en verre ?').content, /Signaler un problème/);
    assert.doesNotMatch(ask('est-ce que la collecte est maintenue le 25 décembre ?', 'Bourg').content, /Signaler un problème/);
  });
});
