import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { streetKey, looseStreetKey } from '../../src/kernel/address.ts';
import {
  editDistance,
  isNearMiss,
  numberMatches,
  numbersLabel,
  ruleLabel,
  type StreetNumberRule,
} from '../../src/kernel/street-rules.ts';

// Pure rules: no database is involved, so they run once rather than per database kind.

const NBSP = '\u00a0';
const STREETS = [
  'Rue de Siam', 'Rue Jean-Jaurès', 'Rue de l’Église', 'Boulevard de l’Europe', 'Place de la Liberté', 'Rue Saint-Martin',
  'Impasse des Tilleuls', 'Rue de Lambézellec', 'Rue Amiral-Linois', 'Route de Plabennec', 'Rue du Général-de-Gaulle',
];

/** Optimal string alignment distance, the plain full-matrix way. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('numberMatches', () => {
  it('holds the inclusive range and the side', () => {
    const odd1to99: StreetNumberRule = { fromNumber: 1, toNumber: 99, side: 'ODD' };
    assert.equal(numberMatches(odd1to99, 1), true);
    assert.equal(numberMatches(odd1to99, 99), true);
    assert.equal(numberMatches(odd1to99, 12), false);
    assert.equal(numberMatches(odd1to99, 101), false);
    assert.equal(numberMatches({ fromNumber: 100, toNumber: null, side: 'EVEN' }, 2024), true);
    assert.equal(numberMatches({ fromNumber: 100, toNumber: null, side: 'EVEN' }, 98), false);
    assert.equal(numberMatches({ fromNumber: null, toNumber: 40, side: 'ALL' }, 40), true);
    assert.equal(numberMatches({ fromNumber: null, toNumber: 40, side: 'ALL' }, 41), false);
    assert.equal(numberMatches({ fromNumber: null, toNumber: null, side: 'ALL' }, 0), false);
  });

  it('agrees with the rule enumerated number by number', () => {
    const bound = fc.option(fc.integer({ min: 1, max: 120 }), { nil: null });
    const rule = fc.record({ fromNumber: bound, toNumber: bound, side: fc.constantFrom('ALL', 'ODD', 'EVEN') as fc.Arbitrary<StreetNumberRule['side']> });
    fc.assert(
      fc.property(rule, fc.integer({ min: 1, max: 150 }), (r, n) => {
        // Enumerate the side's numbers, then keep those in range: another path than numberMatches' own tests.
        const start = r.side === 'EVEN' ? 2 : 1;
        const step = r.side === 'ALL' ? 1 : 2;
        const served = new Set<number>();
        for (let k = start; k <= 150; k += step) if ((r.fromNumber ?? 1) <= k && k <= (r.toNumber ?? Infinity)) served.add(k);
        assert.equal(numberMatches(r, n), served.has(n));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ruleLabel', () => {
  it('says in French which numbers a rule serves', () => {
    assert.equal(ruleLabel({ street: 'Rue de Siam', fromNumber: 1, toNumber: 99, side: 'ODD' }), `Rue de Siam, numéros impairs de${NBSP}1 à${NBSP}99`);
    assert.equal(numbersLabel({ fromNumber: 100, toNumber: null, side: 'EVEN' }), `numéros pairs à partir de${NBSP}100`);
    assert.equal(numbersLabel({ fromNumber: null, toNumber: 40, side: 'ALL' }), `numéros jusqu’au${NBSP}40`);
    assert.equal(numbersLabel({ fromNumber: null, toNumber: null, side: 'ALL' }), 'tous les numéros');
    assert.equal(numbersLabel({ fromNumber: null, toNumber: null, side: 'ODD' }), 'numéros impairs');
    assert.equal(numbersLabel({ fromNumber: 2, toNumber: 40, side: 'EVEN' }), `numéros pairs de${NBSP}2 à${NBSP}40`);
    assert.equal(numbersLabel({ fromNumber: 12, toNumber: 12, side: 'ALL' }), `numéro${NBSP}12`);
    assert.equal(ruleLabel({ street: 'Place de la Liberté', fromNumber: null, toNumber: null, side: 'ALL' }), 'Place de la Liberté, tous les numéros');
  });

  it('uses the typographic apostrophe and never a plain space before a number', () => {
    const bound = fc.option(fc.integer({ min: 1, max: 9999 }), { nil: null });
    fc.assert(
      fc.property(bound, bound, fc.constantFrom('ALL', 'ODD', 'EVEN') as fc.Arbitrary<StreetNumberRule['side']>, (fromNumber, toNumber, side) => {
        const label = numbersLabel({ fromNumber, toNumber, side });
        assert.doesNotMatch(label, /'| \d/);
        assert.match(label, /^(numéros?|tous les numéros)/);
      }),
    );
  });
});

describe('editDistance and isNearMiss', () => {
  it('counts insertions, deletions, substitutions and swaps, up to a bound', () => {
    assert.equal(editDistance('rue de siam', 'rue de siam', 2), 0);
    assert.equal(editDistance('rue de siam', 'rue de sian', 2), 1);
    assert.equal(editDistance('rue de siam', 'rue de saim', 2), 1);
    assert.equal(editDistance('rue de siam', 'rue de sim', 2), 1);
    assert.equal(editDistance('rue de siam', 'rue de brest', 2), 3);
    assert.equal(editDistance('', 'abc', 5), 3);
  });

  it('agrees with an unbounded reference, capped at the bound', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        assert.equal(editDistance(a, b, max), Math.min(referenceDistance(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a street with a typo or two, but not another street', () => {
    assert.equal(isNearMiss(streetKey('rue de sian'), streetKey('Rue de Siam')), true);
    assert.equal(isNearMiss(streetKey('rue jean jaure'), streetKey('Rue Jean-Jaurès')), true);
    assert.equal(isNearMiss(streetKey('bd de l urope'), streetKey('Boulevard de l’Europe')), true);
    assert.equal(isNearMiss(streetKey('place liberte'), streetKey('Place de la Liberté')), true);
    assert.equal(isNearMiss(streetKey('impase des tileuls'), streetKey('Impasse des Tilleuls')), true);
    assert.equal(isNearMiss(streetKey('rue de brest'), streetKey('Rue de Siam')), false);
    assert.equal(isNearMiss(streetKey('rue saint martin'), streetKey('Rue Saint-Marc')), false);
  });

  it('tolerates any one typo in a street of ten characters or more', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STREETS), fc.nat(), fc.constantFrom('swap', 'drop', 'change', 'add'), (name, at, typo) => {
        const key = looseStreetKey(streetKey(name));
        fc.pre(key.length >= 10);
        const i = at % (key.length - 1);
        const typed =
          typo === 'swap' ? key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2)
          : typo === 'drop' ? key.slice(0, i) + key.slice(i + 1)
          : typo === 'change' ? key.slice(0, i) + (key[i] === 'x' ? 'y' : 'x') + key.slice(i + 1)
          : key.slice(0, i) + 'x' + key.slice(i);
        assert.equal(isNearMiss(typed, streetKey(name)), true, typed);
      }),
    );
  });
});
