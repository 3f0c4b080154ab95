import type { DayNumber } from '../../kernel/dates.ts';
import type { AddressMatch } from '../../domain/address-match.ts';
import type { ContentPassage } from '../content.ts';
import type { ReportedType } from '../reports.ts';
import type { GuidanceTopic, MaterialEntry, Place, WasteType } from '../knowledge.ts';
import type { HazardFamily } from '../hazards.ts';

/**
 * The typed questions the built-in assistant answers, a kind and its slots, and what it remembers of a conversation
 * between messages (`AssistantState`): data stored on the conversation, never recovered from the assistant's replies.
 */

export type ConsignTopic = Exclude<GuidanceTopic, 'holidays'>;

export type Question =
  | { kind: 'empty' }
  | { kind: 'english' }
  | { kind: 'handoff' }
  | { kind: 'streetShared'; matches: AddressMatch<Place>[] }
  | { kind: 'openNow' }
  | { kind: 'placeGiven'; resume: string | null }
  | { kind: 'greeting'; thanksOnly: boolean }
  | { kind: 'outOfScope' }
  | { kind: 'help' }
  | { kind: 'report'; typeCode: ReportedType }
  | { kind: 'collectionMoved'; day: DayNumber | null; wasteTypes: WasteType[]; withHolidayRule: boolean }
  | { kind: 'collectionsOnDay'; day: DayNumber; wasteTypes: WasteType[]; withHolidayRule: boolean }
  | { kind: 'notCollectedAnywhere'; wasteTypes: WasteType[] }
  | { kind: 'holidays' }
  | { kind: 'nextCollections'; wasteTypes: WasteType[]; topics: ConsignTopic[] }
  | { kind: 'unknownStream' }
  | { kind: 'material'; entry: MaterialEntry; guess: boolean }
  | { kind: 'nearMaterial'; entry: MaterialEntry }
  | { kind: 'ambiguousMaterial'; entries: MaterialEntry[] }
  | { kind: 'unknownMaterial' }
  | { kind: 'hazard'; family: HazardFamily }
  | { kind: 'unsureMaterial'; entry: MaterialEntry }
  | { kind: 'wasteTypes'; wasteTypes: WasteType[] }
  | { kind: 'guidance'; topics: ConsignTopic[] }
  | { kind: 'schedule' }
  | { kind: 'points'; pointIds: string[] }
  | { kind: 'pointMaterials'; pointIds: string[] }
  | { kind: 'pointHours'; pointIds: string[]; day: DayNumber }
  | { kind: 'unknownPoint' }
  | { kind: 'contact' }
  | { kind: 'content'; passage: ContentPassage }
  | { kind: 'notInData' };

export type QuestionKind = Question['kind'];

/** What the assistant remembers of a conversation, stored on it as data (migration 0016). */
export interface AssistantState {
  /** The citizen's question that waits for a place: answered once the place is given. */
  awaitingPlace: { question: string } | null;
  /** The last question answered, for a follow-up (« et le verre ? », « et le samedi ? »). */
  last: { kind: QuestionKind; wasteTypeIds: string[]; day: string | null; pointIds: string[] } | null;
}

export const NO_STATE: AssistantState = { awaitingPlace: null, last: null };

/** Reads a stored state defensively: anything unexpected is no state. */
export function assistantState(stored: unknown): AssistantState {
  if (!stored || typeof stored !== 'object') return NO_STATE;
  const s = stored as Partial<AssistantState>;
  const awaiting = s.awaitingPlace && typeof s.awaitingPlace.question === 'string' ? { question: s.awaitingPlace.question } : null;
  const l = s.last;
  const last =
    l && typeof l.kind === 'string'
      ? {
          kind: l.kind,
          wasteTypeIds: Array.isArray(l.wasteTypeIds) ? l.wasteTypeIds.filter((x) => typeof x === 'string') : [],
          day: typeof l.day === 'string' ? l.day : null,
          pointIds: Array.isArray(l.pointIds) ? l.pointIds.filter((x) => typeof x === 'string') : [],
        }
      : null;
  return { awaitingPlace: awaiting, last };
}
