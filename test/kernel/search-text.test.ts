import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchText, meaningfulWords, normalisedQuery, searchQuery, searchableText, singular } from '../../src/kernel/search-text.ts';
import { stem } from '../../src/chat/text-match.ts';

/** The sorting guide's text matching (src/kernel/search-text.ts), without a database. */
describe('search text', () => {
  it('folds accents, case, punctuation, plurals and linking words', () => {
    assert.deepEqual(meaningfulWords('Pots de Yaourt'), ['pot', 'yaourt']);
    assert.deepEqual(meaningfulWords('Les journaux'), ['journal']);
    assert.deepEqual(meaningfulWords('Coquilles d’œufs'), ['coquille', 'oeuf']);
    assert.deepEqual(meaningfulWords('de la'), ['de', 'la']);
    assert.equal(singular('verres'), 'verre');
    assert.equal(singular('bus'), 'bus');
    assert.equal(singular('stress'), 'stress');
  });

  it('keeps the chat\'s plural stripping in the kernel (one rule, two areas)', () => {
    assert.equal(stem('bouteilles'), 'bouteille');
    assert.equal(stem('journaux'), 'journau');
  });

  it('normalises a counted query: folded, punctuation gone, plurals kept, at most 100 characters', () => {
    assert.equal(normalisedQuery('  Où jeter   les PILES ?! '), 'ou jeter les piles');
    assert.equal(normalisedQuery('é'.repeat(150)).length, 100);
    assert.equal(normalisedQuery('?!'), '');
  });

  it('tells an exact name, all its words, a near word and trigram likeness apart', () => {
    const kind = (q: string, name: string) => matchText(searchQuery(q), searchableText(name))?.kind ?? null;
    assert.equal(kind('piles', 'Pile'), 'exact');
    assert.equal(kind('canape', 'Canapé'), 'exact');
    assert.equal(kind('cafe', 'Café (marc)'), 'exact');
    assert.equal(kind('yaourt pot', 'Pot en plastique (yaourt, crème fraîche)'), 'words');
    assert.equal(kind('capsule café', 'Capsule de café'), 'exact');
    assert.equal(kind('pille', 'Pile jetable'), 'near');
    assert.equal(kind('refrigirateur', 'Réfrigérateur'), 'near');
    assert.equal(kind('frig', 'Frigo'), 'near');
    // Under 5 letters no typo is forgiven; under 3 no word start counts.
    assert.equal(kind('pil', 'Pneu'), null);
    assert.equal(kind('fr', 'Frigo'), null);
    assert.equal(kind('xylophone', 'Pile jetable'), null);
    // Some of several words: a partial match, whether or not they name the thing's head.
    assert.equal(kind('vaisselle cassée', 'Vaisselle'), 'partial');
    assert.equal(kind('vaisselle cassée', 'Lave-vaisselle'), 'partial');
  });

  it('knows what a name is (its heads) apart from what qualifies it', () => {
    assert.deepEqual(searchableText('Lave-vaisselle').heads, ['lave']);
    assert.deepEqual(searchableText('Bocal ou pot en verre (alimentaire)').heads, ['bocal', 'pot']);
    assert.deepEqual(searchableText('Emballages et papiers').heads, ['emballage', 'papier']);
    assert.deepEqual(searchableText('(et bouchon) Bouteille').heads, ['bouteille']);
    const head = (q: string, name: string) => {
      const match = matchText(searchQuery(q), searchableText(name));
      return match && 'head' in match ? match.head : null;
    };
    assert.equal(head('vaisselle cassée', 'Vaisselle'), true);
    assert.equal(head('vaisselle cassée', 'Lave-vaisselle'), false);
    assert.equal(head('medicament', 'Bouteille de sirop de médicament en verre'), false);
    assert.equal(head('yaourt pot', 'Pot en plastique (yaourt, crème fraîche)'), true);
  });
});
