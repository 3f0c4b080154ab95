import type { CityApi, WasteCollectionPlaceApi, WasteTypeApi } from '../../domain/city-model/schemas.ts';
import type { PlaceSchedule } from '../../domain/collection-calendar.ts';
import type { HolidayCalendar } from '../../kernel/holidays.ts';
import type { StreetSide } from '../../kernel/street-rules.ts';

/**
 * What the assistant knows of a city, as types only: the loader (repository.ts, loadCityKnowledge) fills it, the
 * readers of each subject (this folder, content.ts, contact.ts, the handlers) take it. Apart, so that no reader and
 * the loader import each other.
 */

export interface CityKnowledge {
  city: CityApi;
  /** IANA zone of the city, for "today" and for writing dates. */
  timeZone: string;
  /** The city's public holidays (the national ones, or Alsace-Moselle's): what its points' `PH` means. */
  holidayCalendar: HolidayCalendar;
  /**
   * Each place's calendar as the engine reads it (domain/schedules.ts, read on the same snapshot as `city`), by place
   * id: its days, its exceptions with their kind (a MOVE's new day, an ADD), the city's holiday calendar and the
   * group's holiday rules, which the published city does not show.
   */
  schedules: Record<string, PlaceSchedule>;
  /** The street rules of the city's places, which the public city does not show. */
  streets: KnowledgeStreetRule[];
  /** What the city's recycling points hold besides the public fields: their hours as a spec, their kind, what they take. */
  points: KnowledgePoint[];
  /** Passages of the group's published pages and posts (content.ts), quoted for what the data does not say. */
  content: ContentPassage[];
  /** How citizens reach the service (contact.ts). */
  contact: KnowledgeContact;
}

export interface KnowledgePoint {
  id: string;
  /** OpenStreetMap `opening_hours`, checked when stored; null when not known. */
  openingHoursSpec: string | null;
  kind: 'CENTRE' | 'CONTAINER' | 'SHOP' | null;
  /** Waste types the point takes. */
  wasteTypeIds: string[];
}

export interface KnowledgeStreetRule {
  placeId: string;
  street: string;
  streetKey: string;
  fromNumber: number | null;
  toNumber: number | null;
  side: StreetSide;
}

export type Place = WasteCollectionPlaceApi;
export type WasteType = WasteTypeApi;

/** A passage of the group's published pages and posts (content.ts). */
export interface ContentPassage {
  title: string;
  path: string;
  /** The passage as plain text, links written « text (address) ». */
  text: string;
  /** Its words (stems), with the heading's above it and the title's. */
  tokens: string[];
}

/** How citizens reach the service besides the chat (contact.ts). */
export interface KnowledgeContact {
  phone: string | null;
  email: string | null;
  hours: string | null;
  address: string | null;
  /** Other addresses the group's sites give (`settings.contactEmail`), with the site's name. */
  siteEmails: { site: string; email: string }[];
}
