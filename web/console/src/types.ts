// Shapes of the admin API as the console reads them (docs/api.md, the admin API), named from the types generated from
// GET /openapi.json (web/shared/api-types.gen.ts): the public shapes both apps read come from web/shared/types.ts.
import type { GetJson } from '../../shared/types.ts';

export type { Collection, CollectionException, GroupContact } from '../../shared/types.ts';

export type CityGroup = GetJson<'/admin/city-groups/{id}'>;
export type City = GetJson<'/admin/cities/{id}'>;
export type WasteType = GetJson<'/admin/waste-types/{id}'>;
export type Place = GetJson<'/admin/places/{id}'>;
export type CollectionDay = Place['collectionDays'][number];
/** A place's area: a GeoJSON Polygon or MultiPolygon, or null. */
export type Area = Place['area'];
export type RecyclingPoint = GetJson<'/admin/recycling-points/{id}'>;
export type QuizQuestion = GetJson<'/admin/quiz-questions/{id}'>;
export type Challenge = GetJson<'/admin/challenges/{id}'>;
export type Badge = GetJson<'/admin/badges/{id}'>;
export type Serie = GetJson<'/admin/series/{id}'>;
export type AttachedLocation = GetJson<'/admin/attached-locations/{id}'>;
export type WasteTypeDetail = GetJson<'/admin/waste-type-details/{id}'>;
