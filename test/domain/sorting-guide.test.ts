import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildCityGuide, searchGuideMatches, type CityGuideRows } from '../../src/domain/sorting-guide.ts';

/**
 * The sorting guide's tiers (src/domain/sorting-guide.ts), on a small city whose names are made to tell the tiers apart,
 * without a database (the route's own test runs the demo data through GET /public/cities/:cityId/sorting-guide).
 */

const OM = 'om';
const DECH = 'decheterie';
const VERRE = 'verre';

function city(details: [material: string, wasteTypeId: string, description?: string][]): CityGuideRows {
  return {
    city: { id: 'c', name: 'Ville', timeZone: 'Europe/Paris' },
    wasteTypes: [
      { id: DECH, name: 'Déchèterie', instructions: null },
      { id: OM, name: 'Ordures ménagères', instructions: null },
      { id: VERRE, name: 'Verre', instructions: null },
    ],
    details: details.map(([material, wasteTypeId, description], i) => ({
      id: `d${i}`,
      wasteTypeId,
      material,
      description: description ?? null,
      instructions: null,
    })),
    quizMaterials: [],
    points: [],
  };
}

const search = (rows: CityGuideRows, q: string) => searchGuideMatches(buildCityGuide(rows), q).map((m) => `${m.result.material}:${m.match}`);

describe('sorting guide tiers', () => {
  const rows = city([
    ['Bouteille en verre (eau, vin)', VERRE, 'Aussi appelé : Bouteille de sirop de médicament en verre.'],
    ['Gros électroménager', DECH, 'Aussi appelé : Congélateur, Lave-vaisselle.'],
    ['Médicaments', DECH],
    ['Médicament vétérinaire', DECH],
    ['Lampe frontale', DECH, 'Fonctionne avec un accumulateur ; retirez-le avant de la déposer.'],
    ['Vaisselle', OM, 'Aussi appelé : Assiette, Tasse.'],
  ]);

  it('ranks the whole name, then the words with the head, then a mention of a word that is not the head', () => {
    assert.deepEqual(search(rows, 'medicaments'), [
      'Médicaments:exact',
      // Every word, the head among them.
      'Médicament vétérinaire:words',
      // « médicament » in the bottle's synonym is not what the bottle is.
      'Bouteille en verre (eau, vin):words',
    ]);
    assert.deepEqual(search(rows, 'medicamant'), ['Médicaments:near', 'Médicament vétérinaire:near', 'Bouteille en verre (eau, vin):near']);
  });

  it('answers the one thing a query names by its head before one sharing another of its words, and drops guesses then', () => {
    assert.deepEqual(search(rows, 'vaisselle cassée'), ['Vaisselle:partial']);
    assert.deepEqual(search(rows, 'assiettes cassées'), ['Vaisselle:partial']);
  });

  it('still answers a guess when nothing closer matches', () => {
    const withoutCrockery = city([['Gros électroménager', DECH, 'Aussi appelé : Lave-vaisselle.'], ['Meuble', DECH]]);
    // One of two words in common, and not the dishwasher's head: a guess, said as such.
    assert.deepEqual(search(withoutCrockery, 'vaisselle cassée'), ['Gros électroménager:similar']);
  });

  it('finds a material by its description\'s words last, never by its « Aussi appelé » list', () => {
    assert.deepEqual(search(rows, 'accumulateurs'), ['Lampe frontale:description']);
    // Words of the synonym list are synonyms (a whole one here), not description words.
    assert.deepEqual(search(rows, 'aussi appele'), []);
    assert.deepEqual(search(rows, 'congelateur'), ['Gros électroménager:exact']);
    // A description matches only with every word typed.
    assert.deepEqual(search(rows, 'accumulateur lithium'), []);
  });
});
