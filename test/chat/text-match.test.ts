import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentTokens, editDistance, normalizeText, tokenize, wordMatches } from '../../src/chat/text-match.ts';
import { colourOfHex } from '../../src/chat/vocabulary.ts';
import { frenchDate } from '../../src/chat/knowledge.ts';

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
