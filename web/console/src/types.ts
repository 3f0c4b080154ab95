// Shapes of the admin API as the console reads them (CONTRACT section 13; GET /openapi.json has them all): the public
// shapes both apps read (web/shared/types.ts) and the fields the admin API adds.
import type * as Public from '../../shared/types.ts';

export type { Collection, CollectionException, GroupContact } from '../../shared/types.ts';

export interface CityGroup {
  id: string;
  name: string;
  type: string;
  code: string;
  chatEnabled: boolean;
}

export interface City {
  id: string;
  name: string;
  country: string;
  population: number | null;
  status: 'ACTIF' | 'NON_ACTIF';
  timeZone: string;
  cityGroupId: string | null;
}

export interface WasteType extends Public.WasteType {
  icon: string | null;
  imageUrl: string | null;
  cityId: string;
}

export interface CollectionDay extends Public.CollectionDay {
  startDate: string | null;
}

export interface Place {
  id: string;
  name: string;
  cityId: string;
  collectionDays: CollectionDay[];
  exceptions: Public.CollectionException[];
  streets: { id: string; street: string; fromNumber: number | null; toNumber: number | null; side: 'ALL' | 'ODD' | 'EVEN' }[];
}
