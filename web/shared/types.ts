// The API's shapes as both apps name them, taken from the types generated from GET /openapi.json
// (api-types.gen.ts, `npm run build:web-types`): only the names are written here, no field. Each app names what only
// it reads in its own types files, the same way.
import type { components, paths } from './api-types.gen.ts';

/** A schema the API names (its `$id`), under `components.schemas` in the OpenAPI document. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The JSON body an operation answers with this status. */
export type JsonAnswer<Operation, Status extends number = 200> =
  Operation extends { responses: { [S in Status]: { content: { 'application/json': infer Body } } } } ? Body : never;

/** The paths whose GET answers JSON with 200 (a typo in a path is an error, not a silent `never`). */
type JsonGetPath = { [P in keyof paths]: [JsonAnswer<paths[P]['get']>] extends [never] ? never : P }[keyof paths];

/** What GET `Path` answers with 200, e.g. `GetJson<'/public/cities/{id}'>`. */
export type GetJson<Path extends JsonGetPath> = JsonAnswer<paths[Path]['get']>;

/** The listing envelope (the API reference at /docs, CMS): one page of `Item`s and where it stands. */
export interface Listing<Item> {
  data: Item[];
  meta: GetJson<'/public/cms/sites'>['meta'];
}

/** The error body of every failure: clients read `code` and `field`, and show `message`. */
export type ApiErrorBody = Schema<'Error'>;

export type City = Schema<'City'>;
export type CityGroup = Schema<'CityGroup'>;

/** A city group's contact block (each null when not published). */
export type GroupContact = Pick<CityGroup, 'contactPhone' | 'contactEmail' | 'contactHours' | 'contactAddress'>;

export type WasteType = City['wasteTypes'][number];
/** A material a waste type takes, with its own instructions. */
export type WasteDetail = WasteType['details'][number];

type Place = City['wasteCollectionPlaces'][number];
export type CollectionDay = Place['collectionDays'][number];
/** A collection cancelled or moved between two dates, with its explanation. */
export type CollectionException = Place['exceptions'][number];

export type RecyclingPoint = City['recyclingPoints'][number];

/** One collection of the calendar (docs/api.md, the collection calendar), as the public calendar and the admin preview answer it. */
export type Collection = GetJson<'/public/cities/{cityId}/places/{placeId}/collections'>[number];
