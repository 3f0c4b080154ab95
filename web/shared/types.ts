// Shapes of the API that both apps read (the public API's, which the admin API repeats with more fields; see
// GET /openapi.json). Each app adds what only it reads.

/** A city group's contact block (each null when not published). */
export interface GroupContact {
  contactPhone: string | null;
  contactEmail: string | null;
  contactHours: string | null;
  contactAddress: string | null;
}

/** A material a waste type takes, with its own instructions. */
export interface WasteDetail {
  id: string;
  material: string;
  description: string | null;
  instructions: string | null;
}

export interface WasteType {
  id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  color: string | null;
  colorLight: string | null;
  details: WasteDetail[];
}

export interface CollectionDay {
  id: string;
  name: string;
  wasteTypeId: string;
  description: string | null;
  biweekly: boolean | null;
}

/** A collection cancelled or moved between two dates, with its explanation. */
export interface CollectionException {
  id: string;
  dateFrom: string;
  dateTo: string | null;
  wasteTypeId: string;
  name: string | null;
  description: string | null;
}

export interface RecyclingPoint {
  id: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: string | null;
}

/** One collection of the calendar (CONTRACT section 3b), as the public calendar and the admin preview answer it. */
export interface Collection {
  date: string;
  wasteTypeId: string;
  wasteTypeName: string;
  color: string | null;
  holiday: string | null;
}
