import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answer, NO_STATE } from '../../src/chat/assistant.ts';
import { HANDLERS } from '../../src/chat/handlers.ts';
import { PHASES, readMessage, ruleThatReads, type AssistantState, type QuestionKind, type Reading, type Rule } from '../../src/chat/question.ts';
import { empty, english, handoff, streetShared } from '../../src/chat/question/control.ts';
import { greeting, nothingAsked, placeGiven, pointFollowUp, report } from '../../src/chat/question/conversation.ts';
import * as topic from '../../src/chat/question/topic.ts';
import { cityPages, notInData } from '../../src/chat/question/fallback.ts';
import type { Place } from '../../src/chat/knowledge.ts';
import { KERBRAT_NOW, kerbratKnowledge, kerbratPlace } from './fixtures/knowledge.ts';

/**
 * The question reader, rule by rule (src/chat/question.ts): for each rule, a table of messages as residents write
 * them and the kind each is read as. Every table is read twice: by its rule alone (the rule reads its own messages)
 * and by the whole reader (that same rule reads them first: no rule before it shadows it). A rule added to a phase
 * without its table, or a kind of question no table reads, fails here. No database: Kerbrat's knowledge is built in
 * memory (fixtures/knowledge.ts).
 */

interface RuleTable {
  rule: Rule;
  /** The conversation's place before the message, by name. */
  place?: string;
  /** Earlier messages of the conversation, answered in turn (a follow-up's previous question). */
  before?: string[];
  rows: [message: string, kind: QuestionKind][];
}

const TABLES: RuleTable[] = [
  // Control.
  { rule: empty, rows: [['🙂', 'empty'], ['?!', 'empty'], ['👍👍', 'empty']] },
  { rule: english, rows: [['what day is the garbage collected please', 'english'], ['When is the recycling bin collected?', 'english']] },
  {
    rule: handoff,
    rows: [['je veux parler à un conseiller', 'handoff'], ['je voudrais parler à quelqu’un', 'handoff'], ['un humain svp, le bac jaune ne passe plus', 'handoff']],
  },
  {
    rule: streetShared,
    rows: [['j’habite rue de Siam', 'streetShared'], ['rue de Siam', 'streetShared'], ['rue de siam, quand passe la poubelle jaune ?', 'streetShared']],
  },
  // Conversation.
  {
    rule: pointFollowUp,
    before: ['la déchèterie du Spernot est ouverte ?'],
    rows: [['et le samedi ?', 'points'], ['et dimanche ?', 'points'], ['le lundi aussi ?', 'points']],
  },
  {
    rule: pointFollowUp,
    before: ['la déchèterie du Spernot est ouverte ?'],
    rows: [['et demain ?', 'pointHours'], ['et samedi prochain ?', 'pointHours'], ['et le 24 décembre ?', 'pointHours']],
  },
  {
    rule: pointFollowUp,
    before: ['les horaires de la déchèterie du Spernot samedi prochain'],
    rows: [['et demain ?', 'pointHours'], ['et samedi prochain ?', 'pointHours'], ['et le 24 décembre ?', 'pointHours'], ['et dimanche ?', 'pointHours'], ['et le samedi ?', 'points']],
  },
  {
    rule: placeGiven,
    before: ['quand passe la poubelle jaune ?'],
    rows: [['Bourg', 'placeGiven'], ['2', 'placeGiven'], ['j’habite au 12 rue de Siam', 'placeGiven'], ['bonjour, j’habite à Kerlann', 'placeGiven']],
  },
  { rule: placeGiven, rows: [['j’habite au Bourg', 'placeGiven'], ['Le Port', 'placeGiven']] },
  { rule: greeting, rows: [['bonjour', 'greeting'], ['merci beaucoup', 'greeting'], ['bonsoir, merci !', 'greeting'], ['coucou', 'greeting']] },
  {
    rule: nothingAsked,
    rows: [
      ['quelle est la capitale de la France ?', 'outOfScope'],
      ['raconte-moi une blague', 'outOfScope'],
      ['le prix de la redevance ?', 'outOfScope'],
      ['il y a des ateliers gratuits avec les ambassadeurs ?', 'content'],
    ],
  },
  // Topic.
  {
    rule: topic.unknownPoint,
    rows: [
      ['jusqu’à quelle heure est ouvert le point d’apport de la gare ?', 'unknownPoint'],
      ['les horaires de la déchèterie de Kervénan ?', 'unknownPoint'],
      ['la borne du marché est ouverte ?', 'unknownPoint'],
    ],
  },
  {
    rule: topic.pointDay,
    rows: [
      ['les horaires de la déchèterie du Spernot samedi prochain', 'pointHours'],
      ['Lavallot est ouvert demain ?', 'pointHours'],
      ['la déchèterie est ouverte à Noël ?', 'pointHours'],
      ['horaires de la borne textile dimanche', 'pointHours'],
    ],
  },
  {
    rule: topic.hazard,
    rows: [
      ['Et une bouteille de gaz, je la mets où ?', 'hazard'],
      ['une cartouche de gaz de camping', 'hazard'],
      ['où jeter une fusée de détresse périmée ?', 'hazard'],
      ['bidon de white spirit', 'hazard'],
      ['quand passe le camion pour les extincteurs ?', 'hazard'],
    ],
  },
  {
    rule: topic.openNow,
    rows: [
      ['la déchèterie est-elle ouverte ?', 'openNow'],
      ['est-ce que la déchetterie de Lavallot est ouverte maintenant', 'openNow'],
      ['c’est ouvert en ce moment la déchèterie ?', 'openNow'],
      ['le spernot est fermé ?', 'openNow'],
    ],
  },
  { rule: topic.contact, rows: [['comment joindre le service ?', 'contact'], ['quel est votre numéro de téléphone ?', 'contact'], ['je peux vous envoyer un mail ?', 'contact']] },
  { rule: topic.help, rows: [['aide', 'help'], ['tu peux m’aider ?', 'help'], ['qu’est-ce que tu sais faire ?', 'help']] },
  {
    rule: report,
    rows: [
      ['mon bac n’a pas été vidé ce matin, qu’est-ce que je fais ?', 'report'],
      ['la poubelle jaune n’a toujours pas été ramassée', 'report'],
      ['le camion a oublié ma rue', 'report'],
      ['la colonne à verre de la place déborde', 'report'],
      ['mon bac est cassé, le couvercle est fendu', 'report'],
      ['on m’a volé ma poubelle', 'report'],
      ['il y a un dépôt sauvage au bout de la rue', 'report'],
      ['je voudrais un bac plus grand', 'report'],
    ],
  },
  {
    rule: topic.collectionMoved,
    place: 'Bourg',
    rows: [
      ['la collecte de Noël est décalée à quel jour ?', 'collectionMoved'],
      ['quand passe le camion après le 25 décembre ?', 'collectionMoved'],
      ['le ramassage du 1er mai est maintenu ?', 'collectionMoved'],
      ['elle est reportée quand ?', 'collectionMoved'],
      ['le bac jaune est avancé ou reporté à Noël ?', 'collectionMoved'],
      ['la poubelle grise est déplacée cette semaine ?', 'collectionMoved'],
      ['le verre est reporté ?', 'notCollectedAnywhere'],
    ],
  },
  {
    rule: topic.collectionMoved,
    place: 'Bourg',
    before: ['est-ce que ça passe le 25 décembre ?'],
    rows: [['elle est reportée ?', 'collectionMoved'], ['c’est décalé ?', 'collectionMoved'], ['maintenue ou pas ?', 'collectionMoved']],
  },
  {
    rule: topic.collectionMoved,
    place: 'Bourg',
    before: ['la collecte de Noël est décalée à quel jour ?'],
    rows: [['et le 1er janvier ?', 'collectionMoved'], ['et les ordures ?', 'collectionMoved']],
  },
  {
    rule: topic.collectionsOnDay,
    place: 'Bourg',
    rows: [
      ['est-ce que ça passe le 25 décembre ?', 'collectionsOnDay'],
      ['et à Noël ?', 'collectionsOnDay'],
      ['le bac jaune passe demain ?', 'collectionsOnDay'],
      ['le 25/12 ça passe ?', 'collectionsOnDay'],
      ['le verre est ramassé le 1er décembre ?', 'notCollectedAnywhere'],
    ],
  },
  { rule: topic.collectionsOnDay, rows: [['les collectes de Noël ?', 'holidays']] },
  {
    rule: topic.holidays,
    rows: [['et les jours fériés ?', 'holidays'], ['comment ça se passe les jours fériés ?', 'holidays'], ['le 11 novembre c’est férié, ça passe ?', 'holidays']],
  },
  {
    rule: topic.schedule,
    place: 'Bourg',
    rows: [
      ['le bac jaune c’est toutes les semaines ?', 'schedule'],
      ['les ordures c’est chaque semaine ?', 'schedule'],
      ['la poubelle grise passe combien de fois ?', 'schedule'],
      ['le bac des ordures c’est une semaine sur deux ?', 'schedule'],
    ],
  },
  {
    rule: topic.nextCollections,
    place: 'Bourg',
    rows: [
      ['quand passe la poubelle jaune ?', 'nextCollections'],
      ['prochain ramassage des ordures ?', 'nextCollections'],
      ['quand passe la poubelle ?', 'nextCollections'],
      ['quand passe la collecte des sapins ?', 'unknownStream'],
    ],
  },
  { rule: topic.nextCollections, rows: [['prochain passage de la poubelle jaune ?', 'nextCollections'], ['quand passe le verre ?', 'notCollectedAnywhere']] },
  {
    rule: topic.pointMaterials,
    rows: [['qu’est-ce qu’on peut déposer à la déchèterie de Lavallot ?', 'pointMaterials'], ['que peut-on jeter à la déchèterie du Spernot ?', 'pointMaterials']],
  },
  {
    rule: topic.everyPoint,
    rows: [['quels sont les points de recyclage de la commune ?', 'points'], ['la liste des déchèteries ?', 'points'], ['tous les points d’apport', 'points']],
  },
  {
    rule: topic.material,
    rows: [
      ['où jeter les mégots ?', 'material'],
      ['où mettre le papier cadeau ?', 'material'],
      ['je jette où mes épluchures ?', 'material'],
      ['dans quelle poubelle le marc de café ?', 'material'],
      ['où va le canapé ?', 'material'],
    ],
  },
  { rule: topic.streamBeforeObjects, rows: [['où déposer le verre ?', 'wasteTypes'], ['je mets où le verre ?', 'wasteTypes']] },
  { rule: topic.ambiguousMaterial, rows: [['où jeter une bouteille ?', 'ambiguousMaterial'], ['une bouteille ça va où ?', 'ambiguousMaterial']] },
  {
    rule: topic.consigns,
    rows: [
      ['quand sortir les bacs ?', 'guidance'],
      ['comment présenter le bac ?', 'guidance'],
      ['quand rentrer la poubelle ?', 'guidance'],
      ['à quelle heure passe le camion ?', 'guidance'],
      ['le couvercle doit être fermé ?', 'guidance'],
    ],
  },
  { rule: topic.points, rows: [['les horaires de la déchèterie ?', 'points'], ['horaires du Spernot', 'points'], ['adresse de la déchèterie de Lavallot ?', 'points']] },
  {
    rule: topic.wasteTypes,
    rows: [['le bac jaune ?', 'wasteTypes'], ['les biodéchets', 'wasteTypes'], ['la poubelle marron', 'wasteTypes'], ['poubelle verte ou grise pour les couches ?', 'wasteTypes']],
  },
  {
    rule: topic.objectOfGuide,
    rows: [
      ['où jeter une pille ?', 'material'],
      // « Marc de café » shares one word with the question and leaves « capsule » unexplained: not the same object.
      ['où jeter une capsule de café ?', 'unsureMaterial'],
      ['où jeter la litière du chat ?', 'nearMaterial'],
      ['où jeter un grille-pain ?', 'unknownMaterial'],
      ['je veux me débarrasser d’un matelas et d’un sommier', 'content'],
    ],
  },
  { rule: topic.collectionWithoutSubject, rows: [['c’est quand ?', 'nextCollections'], ['quand ont lieu les ateliers ?', 'nextCollections']] },
  // Fallback.
  { rule: cityPages, rows: [['les horaires des ateliers des ambassadeurs ?', 'content']] },
  { rule: notInData, rows: [['les horaires de la piscine ?', 'notInData'], ['les horaires de la mairie ?', 'notInData']] },
];

const knowledge = kerbratKnowledge();

/** The conversation a table's messages are read in: its place, and the state its earlier messages left. */
function conversationOf(table: RuleTable): { place: Place | null; state: AssistantState } {
  let place = table.place ? kerbratPlace(table.place) : null;
  let state = NO_STATE;
  for (const text of table.before ?? []) {
    const reply = answer({ knowledge, place, history: [], state, text, now: KERBRAT_NOW });
    state = reply.state;
    place = reply.place ?? place;
  }
  return { place, state };
}

function readingsOf(table: RuleTable): [message: string, kind: QuestionKind, reading: Reading][] {
  const { place, state } = conversationOf(table);
  return table.rows.map(([message, kind]) => [message, kind, readMessage(knowledge, place, state, message, KERBRAT_NOW)]);
}

const phaseOf = (rule: Rule) => PHASES.find((phase) => phase.rules.includes(rule))?.name ?? 'no phase';

describe('the question reader, rule by rule', () => {
  it('has a table for every rule of its phases, and no table for a rule outside them', () => {
    const rules = PHASES.flatMap((phase) => phase.rules);
    const tabled = new Set(TABLES.map((table) => table.rule));
    assert.deepEqual(rules.filter((rule) => !tabled.has(rule)).map((rule) => rule.name), [], 'rules without a table');
    assert.deepEqual([...tabled].filter((rule) => !rules.includes(rule)).map((rule) => rule.name), [], 'tables of no phase');
  });

  it('reads every kind of question in some table', () => {
    const read = new Set(TABLES.flatMap((table) => table.rows.map(([, kind]) => kind)));
    assert.deepEqual(Object.keys(HANDLERS).filter((kind) => !read.has(kind as QuestionKind)), []);
  });

  for (const table of TABLES) {
    const name = `${phaseOf(table.rule)} › ${table.rule.name}${table.place ? ` (at ${table.place})` : ''}${table.before ? ` (after « ${table.before.join(' », « ')} »)` : ''}`;
    describe(name, () => {
      it('reads its own messages', () => {
        for (const [message, kind, reading] of readingsOf(table)) {
          assert.equal(table.rule(reading)?.kind ?? null, kind, `« ${message} »`);
        }
      });

      it('is the rule that reads them in the whole reader: no rule before it takes them', () => {
        for (const [message, kind, reading] of readingsOf(table)) {
          const read = ruleThatReads(reading);
          assert.equal(`${read.phase} › ${read.rule.name}`, `${phaseOf(table.rule)} › ${table.rule.name}`, `« ${message} » is read by another rule`);
          assert.equal(read.question.kind, kind, `« ${message} »`);
        }
      });
    });
  }
});
