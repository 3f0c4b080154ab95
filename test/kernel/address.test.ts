import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ADDRESS_MAX_LENGTH,
  looseStreetKey,
  parseAddress,
  streetKey,
  type HouseNumberSuffix,
  type ParseAddressOptions,
} from '../../src/kernel/address.ts';
import { addressesIn } from '../../src/kernel/address.ts';

// ---- Generators of real-looking Brest and Plabennec streets, and of the ways a citizen writes them ----

/** Street types with the abbreviations citizens use. */
const TYPES: Array<[string, string[]]> = [
  ['Rue', ['r', 'r.', 'R.']],
  ['Avenue', ['av', 'Av.', 'ave']],
  ['Boulevard', ['bd', 'Bd.', 'bld', 'blvd']],
  ['Place', ['pl', 'Pl.']],
  ['Impasse', ['imp', 'Imp.']],
  ['Allée', ['all', 'All.']],
  ['Chemin', ['ch', 'Ch.', 'chem']],
  ['Route', ['rte', 'Rte.']],
  ['Square', ['sq', 'Sq.']],
  ['Quai', ['qu', 'Qu.']],
  ['Cours', ['crs']],
  ['Passage', ['pas']],
  ['Résidence', ['res', 'Rés.']],
  ['Lotissement', ['lot', 'Lot.']],
  ['Faubourg', ['fg', 'Fbg']],
];

/** Names with the article each takes (`de l’` binds without a space). */
const NAMES: Array<[string, string]> = [
  ['de ', 'Siam'], ['', 'Jean-Jaurès'], ['de l’', 'Église'], ['de l’', 'Europe'], ['de la ', 'Liberté'],
  ['', 'Saint-Martin'], ['des ', 'Tilleuls'], ['du ', 'Château'], ['de ', 'Lambézellec'], ['de ', 'Kerigonan'],
  ['', 'Émile-Zola'], ['des ', 'Œillets'], ['de ', 'Pen ar Créac’h'], ['du ', 'Général-de-Gaulle'], ['de ', 'Brest'],
  ['de ', 'Plabennec'], ['du ', '8 Mai 1945'], ['de la ', 'Porte'], ['', 'Sainte-Anne'], ['d’', 'Aiguillon'],
  ['', 'Amiral-Linois'], ['', 'Louis-Pasteur'], ['du ', 'Moulin'], ['de ', 'Kerveguen'], ['de ', 'Recouvrance'],
  ['', 'Victor-Hugo'], ['des ', 'Écoles'], ['de l’', 'Harteloire'], ['', 'Saint-Exupéry'], ['du ', 'Bois-d’Amour'],
];

const streetNames = fc
  .record({ type: fc.nat({ max: TYPES.length - 1 }), name: fc.nat({ max: NAMES.length - 1 }) })
  .map(({ type, name }) => ({ type, article: NAMES[name][0], base: NAMES[name][1], name: `${TYPES[type][0]} ${NAMES[name][0]}${NAMES[name][1]}` }));

const SUFFIX_FORMS: Record<HouseNumberSuffix, string[]> = {
  bis: [' bis', 'bis', ' B', 'B', ' b', ' BIS'],
  ter: [' ter', 'ter', ' T', 't'],
  quater: [' quater', 'quater', ' Q'],
};
const TAILS = ['', ' 29200 Brest', ', 29200 Brest', ' Brest', ', Brest', ', BREST', ' 29860 Plabennec', ', Plabennec', ' plabennec'];

const writtenAddresses = fc
  .record({
    street: streetNames,
    abbreviation: fc.option(fc.nat(), { nil: null }),
    saint: fc.boolean(),
    stripAccents: fc.boolean(),
    hyphen: fc.constantFrom('-', ' '),
    apostrophe: fc.constantFrom('’', "'", ' '),
    casing: fc.constantFrom('as is', 'lower', 'upper', 'random'),
    caseSeed: fc.integer(),
    number: fc.option(fc.integer({ min: 1, max: 9999 }), { nil: null }),
    suffix: fc.option(fc.constantFrom<HouseNumberSuffix>('bis', 'ter', 'quater'), { nil: null }),
    suffixForm: fc.nat(),
    numberForm: fc.constantFrom('before', 'before with comma', 'after comma', 'range'),
    tail: fc.constantFrom(...TAILS),
    head: fc.constantFrom('', 'Brest, ', '29200 Brest, ', 'PLABENNEC, ', 'Brest '),
  })
  .map((w) => {
    const [typeWord, abbreviations] = TYPES[w.street.type];
    const type = w.abbreviation === null ? typeWord : abbreviations[w.abbreviation % abbreviations.length];
    let name = `${w.street.article}${w.street.base}`;
    if (w.saint) name = name.replace(/^Sainte?/, (s) => (s === 'Sainte' ? 'Ste' : 'St'));
    let streetText = `${type} ${name}`;
    if (w.stripAccents) streetText = streetText.normalize('NFD').replace(/\p{M}/gu, '');
    streetText = streetText.replaceAll('-', w.hyphen).replaceAll('’', w.apostrophe);
    streetText = recase(streetText, w.casing, w.caseSeed);

    const suffix = w.number === null || w.numberForm === 'range' ? null : w.suffix;
    const numberText =
      w.number === null ? '' : `${w.number}${suffix ? SUFFIX_FORMS[suffix][w.suffixForm % SUFFIX_FORMS[suffix].length] : ''}`;
    const text =
      w.number === null ? streetText
      : w.numberForm === 'before' ? `${numberText} ${streetText}`
      : w.numberForm === 'before with comma' ? `${numberText}, ${streetText}`
      : w.numberForm === 'after comma' ? `${streetText}, ${numberText}`
      : `${w.number}-${w.number + 2} ${streetText}`;
    // A commune written first is followed by a comma, or by the number (`Brest 12 rue de Siam`).
    const head = w.tail !== '' || (w.head.endsWith(' ') && !(w.number !== null && w.numberForm.startsWith('before'))) ? '' : w.head;
    return { text: head + text + w.tail, street: w.street.name, number: w.number, suffix };
  });

function recase(text: string, casing: string, seed: number): string {
  if (casing === 'lower') return text.toLowerCase();
  if (casing === 'upper') return text.toUpperCase();
  if (casing === 'as is') return text;
  let state = seed >>> 0;
  return [...text]
    .map((char) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state & 0x10000 ? char.toUpperCase() : char.toLowerCase();
    })
    .join('');
}

// Pure text rules: no database is involved, so they run once rather than per database kind.

const BREST = { communeNames: ['Brest', 'Plabennec', 'Le Relecq-Kerhuon', 'Saint-Pol-de-Léon'] };

/** What the parser should read: number, suffix and key. */
function read(text: string, options: ParseAddressOptions = BREST) {
  const { number, suffix, key } = parseAddress(text, options);
  return { number, suffix, key };
}
const siam = (number: number | null, suffix: HouseNumberSuffix | null = null) => ({ number, suffix, key: 'rue de siam' });

describe('streetKey', () => {
  it('lowercases, removes accents and ligatures, and turns hyphens, apostrophes, dots and commas into spaces', () => {
    assert.equal(streetKey('Rue de Siam'), 'rue de siam');
    assert.equal(streetKey('Rue Jean-Jaurès'), 'rue jean jaures');
    assert.equal(streetKey('Rue de l’Église'), 'rue de l eglise');
    assert.equal(streetKey("rue de l'eglise"), 'rue de l eglise');
    assert.equal(streetKey('Boulevard de l’Europe'), 'boulevard de l europe');
    assert.equal(streetKey('  PLACE  DE LA LIBERTÉ, '), 'place de la liberte');
    assert.equal(streetKey('Impasse des Œillets'), 'impasse des oeillets');
    assert.equal(streetKey('Rue Lætitia'), 'rue laetitia');
    assert.equal(streetKey('Rue de Pen ar Créac’h'), 'rue de pen ar creac h');
  });

  it('writes the street type in full when it is abbreviated as the first word', () => {
    const cases: Array<[string, string]> = [
      ['r. de Siam', 'rue de siam'],
      ['R de Siam', 'rue de siam'],
      ['Av. Clemenceau', 'avenue clemenceau'],
      ['Bd de l’Europe', 'boulevard de l europe'],
      ['Blvd de l’Europe', 'boulevard de l europe'],
      ['bld de l europe', 'boulevard de l europe'],
      ['Pl. de la Liberté', 'place de la liberte'],
      ['Imp. des Tilleuls', 'impasse des tilleuls'],
      ['All. des Chênes', 'allee des chenes'],
      ['Ch. de Kerveguen', 'chemin de kerveguen'],
      ['Rte de Brest', 'route de brest'],
      ['Sq. Wilson', 'square wilson'],
      ['Crs Dajot', 'cours dajot'],
      ['Qu. de la Douane', 'quai de la douane'],
      ['Pas. des Arts', 'passage des arts'],
      ['Rés. de Kerigonan', 'residence de kerigonan'],
      ['Lot. du Moulin', 'lotissement du moulin'],
      ['Fg de Lambézellec', 'faubourg de lambezellec'],
    ];
    for (const [typed, key] of cases) assert.equal(streetKey(typed), key, typed);
  });

  it('expands saint, sainte and titles anywhere, but type abbreviations only as the first word', () => {
    assert.equal(streetKey('Rue St-Martin'), 'rue saint martin');
    assert.equal(streetKey('Rue Ste-Anne'), 'rue sainte anne');
    assert.equal(streetKey('Rue du Dr Roux'), 'rue du docteur roux');
    assert.equal(streetKey('Av. du Gal de Gaulle'), 'avenue du general de gaulle');
    assert.equal(streetKey('Rue du Fg'), 'rue du faubourg');
    // `Lot`, `Pas` are words inside a name: the river Lot, the Pas-de-Calais.
    assert.equal(streetKey('Rue du Lot'), 'rue du lot');
    assert.equal(streetKey('Rue du Pas-de-Calais'), 'rue du pas de calais');
    assert.equal(streetKey('Rue Paul all'), 'rue paul all');
  });

  it('reads words that are names of JavaScript object properties as plain words', () => {
    assert.equal(streetKey('Constructor de la Tour'), 'constructor de la tour');
    assert.deepEqual(read('12 constructor rue de Siam'), { number: 12, suffix: null, key: 'constructor rue de siam' });
    assert.deepEqual(read('Rue de Siam 12constructor'), { number: null, suffix: null, key: 'rue de siam 12constructor' });
  });

  it('keeps the articles; looseStreetKey drops them', () => {
    assert.equal(looseStreetKey(streetKey('Rue de l’Église')), 'rue eglise');
    assert.equal(looseStreetKey(streetKey('rue eglise')), 'rue eglise');
    assert.equal(looseStreetKey(streetKey('Place de la Liberté')), 'place liberte');
    assert.equal(looseStreetKey(streetKey('Impasse des Tilleuls')), 'impasse tilleuls');
    assert.notEqual(streetKey('Rue de Brest'), streetKey('Place de Brest'));
  });

  it('is idempotent, and its keys hold only lowercase letters, digits and single spaces', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), streetNames.map((s) => s.name)), (name) => {
        const key = streetKey(name);
        assert.equal(streetKey(key), key);
        assert.doesNotMatch(key, /^ | $| {2}|[\p{Lu}\p{M}\p{P}]/u);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseAddress', () => {
  it('reads the number, its suffix and the street in every usual form', () => {
    assert.deepEqual(read('12 bis r. de siam'), siam(12, 'bis'));
    assert.deepEqual(read('12bis rue de Siam'), siam(12, 'bis'));
    assert.deepEqual(read('12 B rue de Siam'), siam(12, 'bis'));
    assert.deepEqual(read('12b rue de Siam'), siam(12, 'bis'));
    assert.deepEqual(read('12 ter rue de Siam'), siam(12, 'ter'));
    assert.deepEqual(read('12T rue de Siam'), siam(12, 'ter'));
    assert.deepEqual(read('12 quater rue de Siam'), siam(12, 'quater'));
    assert.deepEqual(read('12, rue de Siam'), siam(12));
    assert.deepEqual(read('12,rue de Siam'), siam(12));
    assert.deepEqual(read('12 bis, rue de Siam'), siam(12, 'bis'));
    assert.deepEqual(read('rue de Siam'), siam(null));
    assert.deepEqual(read('Rue de Siam, 12'), siam(12));
    assert.deepEqual(read('Rue de Siam, 12 bis'), siam(12, 'bis'));
    assert.deepEqual(read('Rue de Siam 12'), siam(12));
    assert.deepEqual(read('12-14 rue de Siam'), siam(12));
    assert.deepEqual(read('12/14 rue de Siam'), siam(12));
    assert.deepEqual(read('n°12 rue de Siam'), siam(12));
    assert.deepEqual(read('12 A rue de Siam'), siam(12));
    assert.deepEqual(read('12A rue de Siam'), siam(12));
  });

  it('keeps the street as typed, trimmed', () => {
    assert.equal(parseAddress('  12 bis r. de siam, ').street, 'r. de siam');
    assert.equal(parseAddress('Rue de l’Église, 3').street, 'Rue de l’Église');
  });

  it('drops the postcode and the commune', () => {
    assert.deepEqual(read('12 rue de Siam 29200 Brest'), siam(12));
    assert.deepEqual(read('12 rue de Siam, 29200 Brest'), siam(12));
    assert.deepEqual(read('12 rue de Siam 29200 BREST CEDEX'), siam(12));
    assert.deepEqual(read('Rue de Siam, 12, 29200 Brest'), siam(12));
    assert.deepEqual(read('12 rue de Siam Brest'), siam(12));
    assert.deepEqual(read('12 rue de Siam, brest'), siam(12));
    assert.deepEqual(read('Rue de Siam, 12 bis, Brest'), siam(12, 'bis'));
    assert.deepEqual(read('29200 Brest'), { number: null, suffix: null, key: 'brest' });
    assert.deepEqual(read('Brest 12 rue de Siam'), siam(12));
    assert.deepEqual(read('Brest, rue de Siam'), siam(null));
    assert.deepEqual(read('29200 Brest, rue de Siam, 12'), siam(12));
    assert.deepEqual(read('12 rue de Siam Brest 29200'), siam(12));
    assert.deepEqual(read('3 rue Jean-Jaurès Le Relecq-Kerhuon'), { number: 3, suffix: null, key: 'rue jean jaures' });
    assert.deepEqual(read('3 rue Jean Jaures le relecq kerhuon'), { number: 3, suffix: null, key: 'rue jean jaures' });
    assert.deepEqual(read('3 rue de l’Église St-Pol-de-Léon'), { number: 3, suffix: null, key: 'rue de l eglise' });
    // Without the commune names, only what follows a postcode goes.
    assert.deepEqual(read('12 rue de Siam 29200 Brest', {}), siam(12));
    assert.deepEqual(read('12 rue de Siam Brest', {}), { number: 12, suffix: null, key: 'rue de siam brest' });
  });

  it('keeps a commune name that is the street’s own name', () => {
    const routeDeBrest = { number: 5, suffix: null, key: 'route de brest' };
    assert.deepEqual(read('5 route de Brest'), routeDeBrest);
    assert.deepEqual(read('5 route de Brest Brest'), routeDeBrest);
    assert.deepEqual(read('5 route de Brest, Brest'), routeDeBrest);
    assert.deepEqual(read('5 route de Brest 29860 Plabennec'), routeDeBrest);
    assert.deepEqual(read('5 route de Brest Plabennec'), routeDeBrest);
    assert.deepEqual(read('Route de Brest, 5, Plabennec'), routeDeBrest);
    assert.deepEqual(read('Brest, route de Brest, 5'), routeDeBrest);
    assert.deepEqual(read('5 rue Brest'), { number: 5, suffix: null, key: 'rue brest' });
  });

  it('takes no date in a street’s name for a house number', () => {
    const mai = (number: number | null) => ({ number, suffix: null, key: 'rue du 8 mai 1945' });
    assert.deepEqual(read('Rue du 8 Mai 1945'), mai(null));
    assert.deepEqual(read('3 rue du 8 Mai 1945'), mai(3));
    assert.deepEqual(read('Rue du 8 Mai 1945, 3'), mai(3));
    assert.deepEqual(read('3 rue du 8 Mai 1945 29200 Brest'), mai(3));
    assert.deepEqual(read('Rue du 8 Mai 1945 Brest'), mai(null));
    assert.deepEqual(read('8 mai 1945'), { number: null, suffix: null, key: '8 mai 1945' });
  });

  it('reads 0 and numbers of six digits or more as no house number', () => {
    assert.deepEqual(read('0 rue de Siam'), siam(null));
    assert.deepEqual(read('123456 rue de Siam'), siam(null));
    assert.deepEqual(read('Rue de Siam, 0'), siam(null));
    assert.deepEqual(read('9999 rue de Siam'), siam(9999));
  });

  it('reads nothing from an empty text and exports the length limit', () => {
    assert.deepEqual(read(''), { number: null, suffix: null, key: '' });
    assert.deepEqual(read(' , - '), { number: null, suffix: null, key: '' });
    assert.equal(ADDRESS_MAX_LENGTH, 200);
  });

  it('never throws, and answers a number from 1 to 9999 or null and the key of the street it answers', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: ADDRESS_MAX_LENGTH }), (text) => {
        const parsed = parseAddress(text, BREST);
        assert.ok(parsed.number === null || (Number.isInteger(parsed.number) && parsed.number >= 1 && parsed.number <= 9999));
        assert.equal(parsed.suffix !== null && parsed.number === null, false);
        assert.equal(parsed.key, streetKey(parsed.street));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back any address written from a street, whatever its case, accents, abbreviation, number form and tail', () => {
    fc.assert(
      fc.property(writtenAddresses, ({ text, street, number, suffix }) => {
        const parsed = parseAddress(text, BREST);
        assert.deepEqual(
          { number: parsed.number, suffix: parsed.suffix, key: parsed.key },
          { number, suffix, key: streetKey(street) },
          text,
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('addressesIn: the addresses a chat message may hold, longest first', () => {
  it('starts at the house number before a street type word and ends with its clause', () => {
    assert.deepEqual(addressesIn('j’habite 12 rue de Siam'), ['12 rue de Siam', '12 rue de']);
    assert.deepEqual(addressesIn('Quand passe le verre ? J’habite au 3 bis, avenue Foch')[0], '3 bis, avenue Foch');
    assert.deepEqual(addressesIn('je suis au 151 bis r. Jean-Jaurès. Merci')[0], '151 bis r. Jean-Jaurès');
    assert.deepEqual(addressesIn('j’habite l’avenue Victor Le Gorgeu')[0], 'l’avenue Victor Le Gorgeu');
  });

  it('finds none without a street type word, nor in everyday abbreviations-looking words', () => {
    assert.deepEqual(addressesIn('quand passent les ordures ?'), []);
    assert.deepEqual(addressesIn('je ne sais pas où est le port'), []);
  });
});
