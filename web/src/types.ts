// The shapes of the public API this app reads, named from the types generated from GET /openapi.json
// (web/shared/api-types.gen.ts); those the console reads too are named in web/shared/types.ts.
import type { City, GetJson, JsonAnswer, Schema } from '../shared/types.ts';
import type { paths } from '../shared/api-types.gen.ts';

export type {
  City, CityGroup, Collection, CollectionDay, GroupContact, Listing, RecyclingPoint, WasteDetail, WasteType,
} from '../shared/types.ts';

export type Place = City['wasteCollectionPlaces'][number];
/** A collection place found from an address or a position (GET /public/places/lookup, docs/api.md, from an address to a collection place). */
export type PlaceCandidate = Schema<'PlaceCandidate'>;
/** A commune found by name or postcode (GET /public/search/communes, docs/api.md, finding one's commune or address without choosing it first). */
export type CommuneCandidate = Schema<'CommuneCandidate'>;
/** A point with its opening state and distance (GET /public/cities/:cityId/recycling-points, docs/api.md, recycling points and open data). */
export type RecyclingPointStatus = Schema<'RecyclingPointStatus'>;
/** One answer of GET /public/cities/:cityId/sorting-guide?q= (docs/api.md, what citizens search). */
export type GuideResult = GetJson<'/public/cities/{cityId}/sorting-guide'>[number];

export type Challenge = GetJson<'/public/challenges/{cityId}'>[number];
export type Serie = Challenge['series'][number];
export type QuizQuestion = Serie['quizQuestions'][number];
export type Badge = NonNullable<Challenge['badge']>;
export type Progress = GetJson<'/public/challenges/progress/{deviceId}'>[number];
export type Completion = JsonAnswer<paths['/public/challenges/complete']['post'], 201>;

/** A question of the commune's group, with its answer (docs/api.md, frequently asked questions). */
export type FaqEntry = GetJson<'/public/cities/{cityId}/faq'>[number];

export type BlogPost = GetJson<'/public/blog-posts/{id}'>;

export type Site = GetJson<'/public/cms/sites/{slug}'>;
export type Menu = GetJson<'/public/cms/sites/{slug}/menus'>[number];
export type MenuItem = Schema<'MenuItem'>;
export type CmsPage = GetJson<'/public/cms/pages/{id}'>;

/** A service notice in force (GET /public/cities/:cityId/notices, docs/api.md, collections that move and service notices). */
export type ServiceNotice = GetJson<'/public/cities/{cityId}/notices'>[number];

export type ReminderConfig = GetJson<'/public/reminders/config'>;
export type ReminderSubscription = Schema<'ReminderDeviceSubscription'>;

export type ChatAvailability = GetJson<'/public/chat/availability'>;
export type Conversation = JsonAnswer<paths['/public/chat/conversations']['post'], 201>;
/** What the chat screen shows of a message: also its own message while the server has not stored it yet. */
export type ChatMessage = Pick<GetJson<'/public/chat/conversations/{id}/messages'>[number], 'id' | 'role' | 'content' | 'createdAt'>;

/** A request type of a city group, with what its form asks (GET /public/city-groups/:id/request-types, docs/api.md, resident requests). */
export type RequestType = GetJson<'/public/city-groups/{id}/request-types'>[number];
export type RequestField = RequestType['fields'][number];
/** A resident's request as its device reads it, with its updates oldest first. */
export type ResidentRequest = GetJson<'/public/requests/{id}'>;
export type RequestStatus = ResidentRequest['status'];
/** What the report form offers beside « Me localiser » and an address (GET /public/requests/config): a map, or none. */
export type RequestsConfig = GetJson<'/public/requests/config'>;
export type RequestMap = NonNullable<RequestsConfig['map']>;
/** A day a bulky-waste pickup can be booked for, `remaining` 0 when full (GET /public/cities/:cityId/bulky-pickups). */
export type PickupDay = GetJson<'/public/cities/{cityId}/bulky-pickups'>[number];
