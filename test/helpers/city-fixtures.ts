import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/** Fixed ids so that assertions can name what they expect. */
export const ids = {
  group: '10000000-0000-4000-8000-000000000001',
  emptyGroup: '10000000-0000-4000-8000-000000000002',
  brest: '20000000-0000-4000-8000-000000000001',
  elorn: '20000000-0000-4000-8000-000000000002',
  inactive: '20000000-0000-4000-8000-000000000003',
  lonely: '20000000-0000-4000-8000-000000000004',
  wasteOm: '30000000-0000-4000-8000-000000000001',
  wasteVerre: '30000000-0000-4000-8000-000000000002',
  wasteEmb: '30000000-0000-4000-8000-000000000003',
  placeCentre: '40000000-0000-4000-8000-000000000001',
  placeNord: '40000000-0000-4000-8000-000000000002',
};

let counter = 0;
/** A fresh, valid UUID for rows whose id the tests do not name. */
export function uuid(): string {
  counter += 1;
  return `90000000-0000-4000-8000-${counter.toString(16).padStart(12, '0')}`;
}

/**
 * Two groups and four cities: Brest (ACTIF, fully furnished), Élorn (ACTIF, bare), an inactive one, and a city
 * with no group. Rows are inserted out of their API order so that ordering rules are really exercised.
 */
export async function seedCities(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('city_group')
    .values([
      { id: ids.group, name: 'Brest Métropole', type: 'Métropole', code: 'BM', siren: '242900314', chat_enabled: true },
      { id: ids.emptyGroup, name: 'Aber Communauté', type: 'Communauté de communes', code: 'AC', siren: '200000001', chat_enabled: false },
    ])
    .execute();
  await db
    .insertInto('city')
    .values([
      {
        id: ids.brest, name: 'Brest', country: 'France', population: 139926, status: 'ACTIF', city_group_id: ids.group,
        out_of_the_bins: 'Sortez les bacs la veille au soir.', presentation_of_bins: 'Poignée côté rue.',
        return_of_bins: 'Rentrez les bacs après la collecte.', respect_of_calendar: 'Respectez le calendrier.',
        holidays: 'Les jours fériés, la collecte est décalée.',
      },
      { id: ids.elorn, name: 'Élorn', country: 'France', population: null, status: 'ACTIF', city_group_id: ids.group },
      { id: ids.inactive, name: 'Arcadie', country: 'France', population: 12, status: 'NON_ACTIF', city_group_id: ids.group },
      { id: ids.lonely, name: 'Zeta', country: 'France', population: 5, status: 'ACTIF', city_group_id: null },
    ])
    .execute();
  await db
    .insertInto('waste_type')
    .values([
      { id: ids.wasteVerre, city_id: ids.brest, name: 'Verre', color: '#2E7D32', color_light: '#C8E6C9', description: null, instructions: null, icon: 'bottle', image_url: null },
      { id: ids.wasteOm, city_id: ids.brest, name: 'Ordures ménagères', color: '#424242', color_light: null, description: 'Bac gris', instructions: 'En sacs fermés', icon: null, image_url: null },
      { id: ids.wasteEmb, city_id: ids.brest, name: 'Emballages', color: '#F2C500', color_light: null, description: null, instructions: null, icon: null, image_url: 'https://example.org/jaune.png' },
    ])
    .execute();
  await db
    .insertInto('waste_type_detail')
    .values([
      { id: uuid(), waste_type_id: ids.wasteEmb, material: 'Pot de yaourt', description: null, instructions: 'Bien vidé', image_url: null },
      { id: uuid(), waste_type_id: ids.wasteEmb, material: 'Boîte de conserve', description: null, instructions: null, image_url: null },
      { id: uuid(), waste_type_id: ids.wasteEmb, material: 'Écharpe en carton', description: null, instructions: null, image_url: null },
    ])
    .execute();
  await db
    .insertInto('collection_place')
    .values([
      { id: ids.placeNord, city_id: ids.brest, name: 'Secteur Nord' },
      { id: ids.placeCentre, city_id: ids.brest, name: 'Centre-ville' },
    ])
    .execute();
  await db
    .insertInto('collection_day')
    .values([
      { id: uuid(), place_id: ids.placeCentre, name: 'vendredi', waste_type_id: ids.wasteOm, description: null, biweekly: false, start_date: null },
      { id: uuid(), place_id: ids.placeCentre, name: 'lundi', waste_type_id: ids.wasteOm, description: 'Avant 6 h', biweekly: null, start_date: null },
      { id: uuid(), place_id: ids.placeCentre, name: 'mercredi', waste_type_id: ids.wasteEmb, description: null, biweekly: true, start_date: '2026-01-04T23:00:00.000Z' },
      { id: uuid(), place_id: ids.placeNord, name: 'dimanche', waste_type_id: ids.wasteVerre, description: null, biweekly: false, start_date: null },
    ])
    .execute();
  await db
    .insertInto('collection_exception')
    .values([
      { id: uuid(), place_id: ids.placeCentre, date_from: '2027-01-01T00:00:00.000Z', date_to: null, waste_type_id: ids.wasteOm, name: 'Jour de l’an', description: null },
      { id: uuid(), place_id: ids.placeCentre, date_from: '2026-12-24T23:00:00.000Z', date_to: '2026-12-25T23:00:00.000Z', waste_type_id: ids.wasteOm, name: 'Noël', description: 'Collecte reportée' },
    ])
    .execute();
  await db
    .insertInto('attached_location')
    .values([{ id: uuid(), place_id: ids.placeCentre, name: 'Rue de Siam', reference: 'R-001', latitude: 48.3897, longitude: -4.4875 }])
    .execute();
  await db
    .insertInto('recycling_point')
    .values([
      { id: uuid(), city_id: ids.brest, name: 'Déchèterie du Spernot', address: 'Rue du Spernot, 29200 Brest', latitude: 48.41, longitude: -4.52, opening_hours: 'Lundi–samedi 9 h–18 h' },
      { id: uuid(), city_id: ids.brest, name: 'Borne à verre Jaurès', address: null, latitude: null, longitude: null, opening_hours: null },
    ])
    .execute();
  await db
    .insertInto('quiz_question')
    .values([
      { id: uuid(), city_id: ids.brest, material: 'Bouteille en verre', question: 'Où va la bouteille ?', correct_waste_type_id: ids.wasteVerre, order: 2 },
      { id: uuid(), city_id: ids.brest, material: 'Pot de yaourt', question: 'Où va le pot de yaourt ?', correct_waste_type_id: ids.wasteEmb, order: 1 },
    ])
    .execute();
}
