// Shapes of the admin API as the console reads them (docs/api.md, the admin API), named from the types generated from
// GET /openapi.json (web/shared/api-types.gen.ts): the public shapes both apps read come from web/shared/types.ts.
import type { paths } from '../../shared/api-types.gen.ts';
import type { GetJson, JsonAnswer } from '../../shared/types.ts';

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
/** A place's exception as the admin API holds it: with its kind (CANCEL, MOVE, ADD) and the day a MOVE goes to. */
export type AdminException = GetJson<'/admin/exceptions/{id}'>;
export type ExceptionKind = AdminException['kind'];
/** One of a city group's holiday rules (docs/api.md, exceptions and holiday rules). */
export type HolidayRule = CityGroup['holidayRules'][number];
export type HolidayKey = Exclude<HolidayRule['holiday'], '*'>;
export type HolidayAction = HolidayRule['action'];
/** What a group's holiday rules do over the next twelve months (POST /admin/city-groups/:id/holiday-preview). */
export type HolidayPreview = JsonAnswer<paths['/admin/city-groups/{cityGroupId}/holiday-preview']['post']>;
/** A city group's service notice as agents see it (docs/api.md, service notices): past and future ones too. */
export type AdminNotice = GetJson<'/admin/notices/{id}'>;
/** Who a notice of a scope would reach now (GET /admin/notices/audience). */
export type NoticeAudience = GetJson<'/admin/notices/audience'>;
/** A resident's request as agents handle it (docs/api.md, resident requests), in the queue and on its page. */
export type AdminRequest = GetJson<'/admin/requests/{id}'>;
export type RequestStatus = AdminRequest['status'];
/** Whom a group's requests may be assigned to: its agents holding REQUESTS, and the super admins. */
export type RequestAgent = GetJson<'/admin/city-groups/{id}/request-agents'>[number];
/** A request type of a group's catalogue, inactive ones too. */
export type AdminRequestType = GetJson<'/admin/request-types/{id}'>;
export type RequestTypeField = AdminRequestType['fields'][number];
export type Requirement = AdminRequestType['place'];
/** A city's bulky-waste pickup day with its standing bookings, as the staff's calendar reads it (closed days too). */
export type PickupDay = GetJson<'/admin/cities/{cityId}/bulky-pickups'>[number];
export type PickupBooking = PickupDay['bookings'][number];
/** An Open311 partner's API key, without the key itself (super admins only). */
export type Open311Key = GetJson<'/admin/open311-keys/{id}'>;
/** A key just created: the one answer that carries the key. */
export type CreatedOpen311Key = JsonAnswer<paths['/admin/open311-keys']['post'], 201>;
