/**
 * What the assistants know: plain functions over one city's published data (the same data the public API serves),
 * one subject per file under knowledge/. The built-in assistant and the language model's tools both call these, so
 * every fact either of them states comes from here. No I/O: repository.ts loads a city's knowledge.
 *
 * - model.ts: the knowledge itself, types only (the city, its street rules, its points' specs, pages and contact);
 * - collections.ts: a place's calendar with its moves (next collections, a day's and what became of them, changes
 *   ahead) and where a waste type is collected;
 * - waste-types.ts: the waste types a text names;
 * - sorting.ts: the sorting guide's entries and the material a text names;
 * - points.ts: the recycling points a question is about;
 * - places.ts: the place a text names, by name, street or address;
 * - consigns.ts: the city's texts about bins (out, presentation, return, calendar, holidays).
 */

export type { CityKnowledge, KnowledgePoint, KnowledgeStreetRule, Place, WasteType } from './knowledge/model.ts';
export {
  collectionsAfter,
  dayFates,
  frenchDate,
  nextCollectionFacts,
  placesCollecting,
  scheduleOf,
  upcomingChanges,
  type DayFate,
  type NextCollectionFact,
} from './knowledge/collections.ts';
export { wasteTypesMentioned } from './knowledge/waste-types.ts';
export { findMaterial, materialEntries, objectWords, type MaterialEntry, type MaterialLookup } from './knowledge/sorting.ts';
export { recyclingPointsFor, recyclingPointsOfWasteType } from './knowledge/points.ts';
export { addressMentioned, placeMentioned, type AddressMention, type PlaceMatch } from './knowledge/places.ts';
export { guidanceText, type GuidanceTopic } from './knowledge/consigns.ts';
