// Shapes of the admin API as the console reads them (CONTRACT section 13; GET /openapi.json has them all).

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

export interface WasteType {
  id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  color: string | null;
  colorLight: string | null;
  icon: string | null;
  imageUrl: string | null;
  cityId: string;
  details: { id: string; material: string }[];
}

export interface CollectionDay {
  id: string;
  name: string;
  wasteTypeId: string;
  description: string | null;
  biweekly: boolean | null;
  startDate: string | null;
}

export interface CollectionException {
  id: string;
  dateFrom: string;
  dateTo: string | null;
  wasteTypeId: string;
  name: string | null;
  description: string | null;
}

export interface Place {
  id: string;
  name: string;
  cityId: string;
  collectionDays: CollectionDay[];
  exceptions: CollectionException[];
  streets: { id: string; street: string; fromNumber: number | null; toNumber: number | null; side: 'ALL' | 'ODD' | 'EVEN' }[];
}

export interface Collection {
  date: string;
  wasteTypeId: string;
  wasteTypeName: string;
  color: string | null;
  holiday: string | null;
}
