import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { communeIndex, matchCommunes, readCommune } from '../../src/domain/commune-match.ts';

/** The commune read from an address typed on the home screen (docs/api.md, finding one's commune or address without choosing it first). */

const index = communeIndex(
  [
    ['Brest', ['29200']],
    ['Plouzané', ['29280']],
    ['Le Relecq-Kerhuon', ['29480']],
    ['Saint-Pabu', ['29830']],
    ['Plabennec', ['29860']],
    ['Plouvien', ['29860']],
  ].map(([name, postcodes]) => ({ commune: name as string, name: name as string, postcodes: postcodes as string[] })),
);

describe('readCommune', () => {
  it('reads the commune written last or first, with a typo, or its postcode, and leaves the street', () => {
    const table: [string, string[], string][] = [
      ['12 rue jean jaures brest', ['Brest'], '12 rue jean jaures'],
      ['12 rue Jean-Jaurès, Brest', ['Brest'], '12 rue Jean-Jaurès'],
      ['12 rue jean jaures brst', ['Brest'], '12 rue jean jaures'],
      ['Brest, 12 rue de Siam', ['Brest'], '12 rue de Siam'],
      ['brest 12 rue de siam', ['Brest'], '12 rue de siam'],
      ['brest rue de siam', ['Brest'], 'rue de siam'],
      ['12 rue de Siam 29200', ['Brest'], '12 rue de Siam'],
      ['12 rue de Siam, 29200 Brest', ['Brest'], '12 rue de Siam'],
      ['route du conquet plouzanne', ['Plouzané'], 'route du conquet'],
      ['3 rue du passage le relecq kerhuon', ['Le Relecq-Kerhuon'], '3 rue du passage'],
      ['rue de la mairie st pabu', ['Saint-Pabu'], 'rue de la mairie'],
      ['rue de la mairie 29860', ['Plabennec', 'Plouvien'], 'rue de la mairie'],
      // The postcode picks among the communes a name leaves in doubt, and a name beats a postcode that disagrees.
      ['rue de la mairie 29860 plouvien', ['Plouvien'], 'rue de la mairie'],
      ['rue de siam 29860 brest', ['Brest'], 'rue de siam'],
    ];
    for (const [text, communes, rest] of table) assert.deepEqual(readCommune(text, index), { communes, rest }, text);
  });

  it('reads no commune in a street named after one, in a lone name, or in an address without any', () => {
    for (const text of ['rue de brest', '12 route de Brest', 'Brest', 'rue brest', '12 rue de siam', 'rue de plouzane']) {
      assert.equal(readCommune(text, index), null, text);
    }
  });
});

describe('matchCommunes', () => {
  it('tolerates no typo under four letters, one to seven, two from eight', () => {
    assert.deepEqual(matchCommunes('bst', index, { prefixes: false }), []);
    assert.deepEqual(matchCommunes('brst', index, { prefixes: false }).map((m) => m.name), ['Brest']);
    assert.deepEqual(matchCommunes('plouzanne', index, { prefixes: false }).map((m) => m.name), ['Plouzané']);
    assert.deepEqual(matchCommunes('plozanne', index, { prefixes: false }).map((m) => m.name), ['Plouzané']);
    assert.deepEqual(matchCommunes('pluozannee', index, { prefixes: false }).map((m) => m.name), []);
  });
});
