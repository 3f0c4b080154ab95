import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentTokens, editDistance, normalizeText, tokenize, wordMatches } from '../../src/chat/text-match.ts';
import { colourOfHex } from '../../src/chat/vocabulary.ts';
import { frenchDate } from '../../src/chat/knowledge.ts';
import { dayAsked } from '../../src/chat/dates.ts';
import { dayNumberFromParts, formatDayNumber } from '../../src/kernel/dates.ts';

describe('assistant text matching', () => {
  it('normalizes case, accents, apostrophes and punctuation, and strips plurals', () => {
    assert.equal(normalizeText('  Où JETER l’Épluchure, SVP ?! '), 'ou jeter l epluchure svp');
    assert.deepEqual(tokenize('Bouteilles Journaux bacs jus'), ['bouteille', 'journau', 'bac', 'jus']);
    assert.deepEqual(contentTokens('Où jeter les coquilles d’œufs ?'), ['coquille', 'oeuf']);
  });

  it('tolerates one typo from 5 letters and two from 8, none below', () => {
    assert.equal(editDistance('canete', 'canette'), 1);
    assert.equal(editDistance('plastike', 'plastique'), 2);
    assert.equal(editDistance('ab', 'ba'), 1, 'a transposition is one edit');
    assert.ok(wordMatches('canete', 'canette'));
    assert.ok(wordMatches('plastike', 'plastique'));
    assert.ok(!wordMatches('vert', 'verre'), 'short words must match exactly');
    assert.ok(!wordMatches('jus', 'jut'));
    assert.ok(!wordMatches('compost', 'composteur'), 'three edits is another word');
  });

  it('names hex colours by family and writes dates the French way', () => {
    assert.equal(colourOfHex('#4B5563'), 'gris');
    assert.equal(colourOfHex('#EAB308'), 'jaune');
    assert.equal(colourOfHex('#92400E'), 'marron');
    assert.equal(colourOfHex('#16A34A'), 'vert');
    assert.equal(frenchDate('2026-11-24'), 'mardi 24 novembre 2026');
    assert.equal(frenchDate('2027-03-09'), 'mardi 9 mars 2027');
  });
});

describe('days named in a message', () => {
  // 2026-11-23, a Monday.
  const today = dayNumberFromParts(2026, 11, 23);
  const asked = (text: string) => {
    const found = dayAsked(text, today);
    return found ? formatDayNumber(found.day) : null;
  };

  it('reads written, numeric, relative and holiday dates, rolling a past day over to next year', () => {
    assert.equal(asked('est-ce que ça passe le 25 décembre ?'), '2026-12-25');
    assert.equal(asked('et le 1er janvier ?'), '2027-01-01');
    assert.equal(asked('le 31/12 ?'), '2026-12-31');
    assert.equal(asked('le 2/11'), '2027-11-02', 'a day already past this year is next year’s');
    assert.equal(asked('le 25/12/2027'), '2027-12-25', 'a written year is kept');
    assert.equal(asked('demain'), '2026-11-24');
    assert.equal(asked('après-demain'), '2026-11-25');
    assert.equal(asked('et à Noël ?'), '2026-12-25');
    assert.equal(dayAsked('et à Noël ?', today)?.named, true);
  });

  it('reads no date where there is none, nor an impossible one', () => {
    assert.equal(asked('quand passe la poubelle jaune'), null);
    assert.equal(asked('le 31 février'), null);
    assert.equal(asked('3 bouteilles'), null);
    assert.equal(asked('2 sacs, le 3 mars'), '2027-03-03');
    assert.equal(asked('lundi'), null, 'a weekday is a collection day, not a date');
  });

  it('never reads an everyday word as a typo of another', () => {
    assert.ok(!wordMatches('toute', 'tonte'));
    assert.ok(!wordMatches('verte', 'verre'));
    assert.ok(wordMatches('petit', 'petite'), 'an inflection is the same word');
    assert.ok(wordMatches('poubele', 'poubelle'));
  });
});
