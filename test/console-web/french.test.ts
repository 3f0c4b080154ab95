// The console's French wording helpers (web/console/src/french.ts), on the names agents and places really have.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ofName } from '../../web/console/src/french.ts';

describe('console French wording', () => {
  it('elides « de » before a vowel: « le compte d’Administrateur de démonstration », « les secteurs d’Élorn »', () => {
    assert.equal(`Compte ${ofName('Administrateur de démonstration')} créé.`, 'Compte d’Administrateur de démonstration créé.');
    assert.equal(ofName('Élorn'), 'd’Élorn');
    assert.equal(ofName('Ouessant'), 'd’Ouessant');
    assert.equal(ofName('Yann Kermarrec'), 'de Yann Kermarrec');
    assert.equal(ofName('Brest'), 'de Brest');
    assert.equal(ofName('Gwenaëlle Abgrall'), 'de Gwenaëlle Abgrall');
    // No rule for h: « de Hanvec » as the commune itself writes it.
    assert.equal(ofName('Hanvec'), 'de Hanvec');
  });
});
