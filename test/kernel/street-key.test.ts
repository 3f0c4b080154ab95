import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { streetKey } from '../../src/kernel/address.ts';
import { streetRulesOverlap } from '../../src/cities/place-rules.ts';

describe('street key and overlapping street rules', () => {
  it('reads one street whatever its case, accents, hyphens, apostrophes and spaces', () => {
    for (const spelling of ['Rue de l’Église-Saint-Œuvre', "rue de l'eglise saint oeuvre", '  RUE  DE L`ÉGLISE – SAINT‑ŒUVRE ']) {
      assert.equal(streetKey(spelling), 'rue de l eglise saint oeuvre', spelling);
    }
    assert.notEqual(streetKey('Rue de Siam'), streetKey('Rue de Brest'));
    // The key the address lookup reads with: a rule written with an abbreviation is the same street.
    assert.equal(streetKey('Av. Foch'), streetKey('Avenue Foch'));
  });

  it('overlaps only where a number of the same street is on a side both rules hold', () => {
    const rule = (side: 'ALL' | 'ODD' | 'EVEN', fromNumber: number | null, toNumber: number | null, street = 'Rue de Siam') =>
      ({ street, side, fromNumber, toNumber });
    const cases: [ReturnType<typeof rule>, ReturnType<typeof rule>, boolean][] = [
      [rule('ODD', 1, 99), rule('EVEN', null, null), false],
      [rule('ODD', 1, 99), rule('ALL', 99, null), true],
      [rule('ODD', 1, 99), rule('ALL', 100, null), false],
      [rule('ODD', 1, 3), rule('ALL', 2, 2), false],
      [rule('EVEN', 2, 2), rule('EVEN', null, 2), true],
      [rule('ALL', null, null), rule('ALL', null, null, 'rue de SIAM'), true],
      [rule('ALL', null, null), rule('ALL', null, null, 'Rue de Brest'), false],
      [rule('ODD', 4, 4), rule('ODD', 1, 10), false],
    ];
    for (const [a, b, expected] of cases) {
      assert.equal(streetRulesOverlap(a, b), expected, JSON.stringify([a, b]));
      assert.equal(streetRulesOverlap(b, a), expected, 'symmetric');
    }
  });
});
