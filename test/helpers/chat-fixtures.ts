import type { Database } from '../../src/db/database.ts';
import type { ConversationStatus } from '../../src/db/types.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import { BUNDLE_IDS, importValidBundle, validBundle } from './bundle-fixtures.ts';

/**
 * The bundle fixture plus what the chat rules need: Testville (chat enabled, one place) and, around it,
 * a two-place city of the same group, a NON_ACTIF city of that group, a group without the assistant and
 * its city, and a city with no group.
 */
export const CHAT_IDS = {
  ...BUNDLE_IDS,
  twoPlaceCity: '20000000-0000-4000-8000-0000000000c2',
  placeNorth: '40000000-0000-4000-8000-0000000000c1',
  placeSouth: '40000000-0000-4000-8000-0000000000c2',
  dayNorth: '41000000-0000-4000-8000-0000000000c1',
  daySouth: '41000000-0000-4000-8000-0000000000c2',
  wasteTypeTwoPlace: '30000000-0000-4000-8000-0000000000c1',
  inactiveCity: '20000000-0000-4000-8000-0000000000c3',
  inactivePlace: '40000000-0000-4000-8000-0000000000c3',
  disabledGroup: '10000000-0000-4000-8000-0000000000c2',
  disabledCity: '20000000-0000-4000-8000-0000000000c4',
  disabledPlace: '40000000-0000-4000-8000-0000000000c4',
  lonelyCity: '20000000-0000-4000-8000-0000000000c5',
} as const;

const ids = CHAT_IDS;

export function chatBundle(): Bundle {
  const bundle = validBundle();
  bundle.cityGroups!.push({
    id: ids.disabledGroup,
    name: 'Communauté sans assistant',
    type: 'Communauté de communes',
    code: 'CSA',
    siren: '200000002',
    chatEnabled: false,
  });
  bundle.cities!.push(
    {
      id: ids.twoPlaceCity,
      name: 'Deux-Secteurs',
      country: 'France',
      status: 'ACTIF',
      cityGroupId: ids.cityGroup,
      wasteTypes: [{ id: ids.wasteTypeTwoPlace, name: 'Ordures ménagères', color: '#4B5563', instructions: 'Dans le bac gris.' }],
      wasteCollectionPlaces: [
        { id: ids.placeNorth, name: 'Quartier Nord', collectionDays: [{ id: ids.dayNorth, name: 'lundi', wasteTypeId: ids.wasteTypeTwoPlace }] },
        { id: ids.placeSouth, name: 'Quartier Sud', collectionDays: [{ id: ids.daySouth, name: 'mercredi', wasteTypeId: ids.wasteTypeTwoPlace }] },
      ],
    },
    {
      id: ids.inactiveCity,
      name: 'Ville-Fermée',
      country: 'France',
      status: 'NON_ACTIF',
      cityGroupId: ids.cityGroup,
      wasteCollectionPlaces: [{ id: ids.inactivePlace, name: 'Bourg' }],
    },
    {
      id: ids.disabledCity,
      name: 'Sans-Assistant',
      country: 'France',
      status: 'ACTIF',
      cityGroupId: ids.disabledGroup,
      wasteCollectionPlaces: [{ id: ids.disabledPlace, name: 'Bourg' }],
    },
    { id: ids.lonelyCity, name: 'Isolée', country: 'France', status: 'ACTIF', cityGroupId: null },
  );
  return bundle;
}

export async function importChatBundle(t: { after: (fn: () => Promise<void>) => void }, database: Database) {
  return importValidBundle(t, database, { bundle: chatBundle() });
}

/** Puts a conversation in a state only the console can reach (an agent took it, or closed it). */
export async function setConversationStatus(database: Database, id: string, status: ConversationStatus): Promise<void> {
  await database.db.updateTable('conversation').set({ status }).where('id', '=', id).execute();
}
