// The shapes of the public API this app reads (see GET /openapi.json); those the console reads too in web/shared.
import type { CollectionDay, CollectionException, GroupContact, RecyclingPoint, WasteType } from '../shared/types.ts';

export type { Collection, CollectionDay, GroupContact, RecyclingPoint, WasteDetail, WasteType } from '../shared/types.ts';
export type PlaceException = CollectionException;

export interface CityRef {
  id: string;
  name: string;
}
export interface CityGroup extends GroupContact {
  id: string;
  name: string;
  type: string;
  cities: (CityRef & { population: number | null })[];
}
export interface Place {
  id: string;
  name: string;
  collectionDays: CollectionDay[];
  exceptions: PlaceException[];
}
/** A collection place found from an address or a position (GET /public/places/lookup, CONTRACT section 11). */
export interface PlaceCandidate {
  cityId: string;
  cityName: string;
  placeId: string;
  placeName: string;
  matchedBy: 'street' | 'area' | 'location';
  label: string;
  distanceMeters: number | null;
}

/** A point with its opening state and distance (GET /public/cities/:cityId/recycling-points, CONTRACT section 14). */
export interface RecyclingPointStatus extends RecyclingPoint {
  kind: 'CENTRE' | 'CONTAINER' | 'SHOP' | null;
  materials: string[];
  openingHoursSpec: string | null;
  openNow: boolean | null;
  nextChange: string | null;
  distanceMeters: number | null;
}
/** One answer of GET /public/cities/:cityId/sorting-guide?q= (CONTRACT section 15). */
export interface GuideResult {
  material: string;
  wasteTypeId: string;
  wasteTypeName: string;
  instructions: string | null;
  recyclingPointIds: string[];
}
export interface QuizQuestion {
  id: string;
  material: string;
  question: string;
  correctWasteTypeId: string;
  order: number;
}
export interface Badge {
  id: string;
  name: string;
  description: string | null;
  icon: string | null;
  imageUrl: string | null;
}
export interface Serie {
  id: string;
  name: string;
  description: string | null;
  quizQuestions: QuizQuestion[];
}
export interface Challenge {
  id: string;
  name: string;
  description: string | null;
  requiredChallengeId: string | null;
  requiredChallenge: CityRef | null;
  series: Serie[];
  badge: Badge | null;
  /** The pass mark, in %: the badge needs a best score at or above it. */
  passingScore: number;
}
export interface City {
  id: string;
  name: string;
  outOfTheBins: string | null;
  presentationOfBins: string | null;
  returnOfBins: string | null;
  respectOfCalendar: string | null;
  holidays: string | null;
  cityGroup: { id: string; name: string; type: string } | null;
  wasteTypes: WasteType[];
  wasteCollectionPlaces: Place[];
  recyclingPoints: RecyclingPoint[];
  quizQuestions: QuizQuestion[];
}export interface Progress {
  challengeId: string;
  challengeName: string;
  score: number;
  completedAt: string;
  badge: Badge | null;
}
export interface Completion {
  score: number;
  challenge: { id: string; name: string; badge: Badge | null };
}
export interface BlogPost {
  id: string;
  title: string;
  content: string;
  publishedAt: string | null;
  cityGroup: { id: string; name: string };
}
export interface Listing<T> {
  data: T[];
  meta: { page: number; pageSize: number; total: number; totalPages: number };
}
export interface Site {
  id: string;
  name: string;
  slug: string;
  domain: string | null;
}
export interface MenuItem {
  id: string;
  label: string;
  linkType: 'PAGE' | 'EXTERNAL' | 'NONE';
  pageId: string | null;
  externalUrl: string | null;
  children: MenuItem[];
}
export interface Menu {
  id: string;
  name: string;
  location: string;
  items: MenuItem[];
}
export interface CmsPage {
  id: string;
  title: string;
  content: string;
  seoDescription: string | null;
}
export interface ChatAvailability {
  enabled: boolean;
}
export interface Conversation {
  id: string;
  status: 'OPEN' | 'WAITING_AGENT' | 'WITH_AGENT' | 'CLOSED';
}
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'agent';
  content: string;
  createdAt: string;
}
