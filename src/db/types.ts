import type { ColumnType, Generated } from 'kysely';

/** A timestamptz column: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type TimestampDefault = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<Record<string, unknown>, string, string>;

export interface CityGroupTable {
  id: string;
  name: string;
  type: string;
  code: string;
  siren: string;
  /** 14 digits (SIREN + NIC), for the SCDL export; null: the export gives the SIREN. */
  siret: string | null;
  chat_enabled: boolean;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface CityTable {
  id: string;
  name: string;
  country: string;
  population: number | null;
  status: 'ACTIF' | 'NON_ACTIF';
  time_zone: Generated<string>;
  out_of_the_bins: string | null;
  presentation_of_bins: string | null;
  return_of_bins: string | null;
  respect_of_calendar: string | null;
  holidays: string | null;
  city_group_id: string | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface WasteTypeTable {
  id: string;
  city_id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  color: string | null;
  color_light: string | null;
  icon: string | null;
  image_url: string | null;
}

export interface WasteTypeDetailTable {
  id: string;
  waste_type_id: string;
  material: string;
  description: string | null;
  instructions: string | null;
  image_url: string | null;
}

export interface CollectionPlaceTable {
  id: string;
  city_id: string;
  name: string;
  /** A GeoJSON Polygon or MultiPolygon (CONTRACT section 11), written as JSON text. */
  area: ColumnType<GeoJsonArea | null, string | null | undefined, string | null>;
  area_min_lon: Generated<number | null>;
  area_min_lat: Generated<number | null>;
  area_max_lon: Generated<number | null>;
  area_max_lat: Generated<number | null>;
}

/** A place's area as stored: GeoJSON, `[longitude, latitude]` positions. */
export interface GeoJsonArea {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: unknown[];
}

export type StreetSide = 'ALL' | 'ODD' | 'EVEN';

export interface StreetRuleTable {
  id: string;
  place_id: string;
  street: string;
  /** streetKey(street), src/kernel/address.ts. */
  street_key: string;
  from_number: number | null;
  to_number: number | null;
  side: StreetSide;
}

export type WeekdayName = 'lundi' | 'mardi' | 'mercredi' | 'jeudi' | 'vendredi' | 'samedi' | 'dimanche';

export interface CollectionDayTable {
  id: string;
  place_id: string;
  name: WeekdayName;
  waste_type_id: string;
  description: string | null;
  biweekly: boolean | null;
  start_date: Timestamp | null;
}

export interface CollectionExceptionTable {
  id: string;
  place_id: string;
  date_from: Timestamp;
  date_to: Timestamp | null;
  waste_type_id: string;
  name: string | null;
  description: string | null;
}

export interface AttachedLocationTable {
  id: string;
  place_id: string;
  name: string;
  reference: string;
  latitude: number;
  longitude: number;
}

export interface RecyclingPointTable {
  id: string;
  city_id: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  opening_hours: string | null;
  /** OpenStreetMap `opening_hours` syntax, checked at import. */
  opening_hours_spec: string | null;
  /** null: not said. */
  kind: RecyclingPointKind | null;
}

export type RecyclingPointKind = 'CENTRE' | 'CONTAINER' | 'SHOP';

/** A waste type of the point's city that the point takes. */
export interface RecyclingPointMaterialTable {
  recycling_point_id: string;
  waste_type_id: string;
  city_id: string;
}

export interface QuizQuestionTable {
  id: string;
  city_id: string;
  material: string;
  question: string;
  correct_waste_type_id: string;
  order: number;
}

export interface ChallengeTable {
  id: string;
  city_id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  start_date: Timestamp | null;
  end_date: Timestamp | null;
  order: number;
  required_challenge_id: string | null;
}

export interface BadgeTable {
  id: string;
  challenge_id: string;
  name: string;
  description: string | null;
  icon: string | null;
  image_url: string | null;
}

export interface SerieTable {
  id: string;
  challenge_id: string;
  name: string;
  description: string | null;
  order: number;
}

export interface SerieQuestionTable {
  serie_id: string;
  quiz_question_id: string;
}

export interface ChallengeCompletionTable {
  id: string;
  device_id: string;
  challenge_id: string;
  score: number;
  completed_at: Timestamp;
}

export interface BlogPostTable {
  id: string;
  title: string;
  content: string;
  published: boolean;
  published_at: Timestamp | null;
  city_group_id: string;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface SiteTable {
  id: string;
  name: string;
  slug: string;
  type: 'SITE' | 'APP';
  domain: string | null;
  settings: Json;
  theme: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  city_group_id: string | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface PageTable {
  id: string;
  site_id: string;
  title: string;
  slug: string;
  content: string;
  seo_title: string | null;
  seo_description: string | null;
  published_at: Timestamp | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface MenuTable {
  id: string;
  site_id: string;
  name: string;
  location: string;
}

export type MenuLinkType = 'PAGE' | 'EXTERNAL' | 'NONE';

export interface MenuItemTable {
  id: string;
  menu_id: string;
  parent_id: string | null;
  label: string;
  link_type: MenuLinkType;
  page_id: string | null;
  external_url: string | null;
  order: number;
}

export interface MediaTable {
  id: string;
  filename: string;
  mime_type: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  public: boolean;
  sha256: string;
  /** Null: imported without a group, managed by super admins only. */
  city_group_id: string | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export type ConversationStatus = 'OPEN' | 'WAITING_AGENT' | 'WITH_AGENT' | 'CLOSED';

export interface ConversationTable {
  id: string;
  device_id: string;
  city_id: string;
  city_group_id: string;
  place_id: string | null;
  status: ConversationStatus;
  assigned_to: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_message_at: Timestamp | null;
}

export type MessageRole = 'user' | 'assistant' | 'agent';

export interface MessageTable {
  id: string;
  conversation_id: string;
  role: MessageRole;
  content: string;
  place_id: string | null;
  author_id: string | null;
  created_at: Timestamp;
  seq: Generated<string>;
}

export interface TicketTable {
  id: string;
  conversation_id: string;
  subject: string;
  description: string;
  status: 'OPEN' | 'CLOSED';
  created_by: string | null;
  created_at: Timestamp;
}

export interface LlmUsageTable {
  id: string;
  conversation_id: string | null;
  city_group_id: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: Timestamp;
}

export interface DataVersionTable {
  id: number;
  version: number;
  changed_at: Timestamp;
}

export interface AccountTable {
  id: string;
  /** Lower-cased on write: unique whatever the case it was typed in. */
  email: string;
  name: string;
  /** argon2id, PHC string format. Never leaves src/auth. */
  password_hash: string;
  permissions: string[];
  super_admin: boolean;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_login_at: Timestamp | null;
}

export interface AccountCityGroupTable {
  account_id: string;
  city_group_id: string;
}

/** A login's session family: the hash of its current refresh token only. */
export interface RefreshSessionTable {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: Timestamp;
  refreshed_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** A failed (or not yet judged) login, counted per e-mail and per client IP. */
export interface LoginAttemptTable {
  id: string;
  email: string;
  ip: string;
  at: Timestamp;
}

export type AuditAction = 'create' | 'update' | 'delete';
type NullableJson = ColumnType<Record<string, unknown> | null, string | null, string | null>;

export interface AuditEntryTable {
  id: string;
  at: Timestamp;
  /** The account that wrote; null for the operator's command line. */
  user_id: string | null;
  user_name: string;
  action: AuditAction;
  entity: string;
  entity_id: string;
  /** The city groups of the record written (before and after): who may read the entry. */
  city_group_ids: string[];
  before: NullableJson;
  after: NullableJson;
}

/** One day's searches of one normalised query in one city (CONTRACT section 15): nothing that identifies a citizen. */
export interface SearchCountTable {
  /** The city's calendar day, written `YYYY-MM-DD`. */
  day: ColumnType<string, string, string>;
  city_id: string;
  query: string;
  found: boolean;
  count: number;
}

export interface DB {
  city_group: CityGroupTable;
  city: CityTable;
  waste_type: WasteTypeTable;
  waste_type_detail: WasteTypeDetailTable;
  collection_place: CollectionPlaceTable;
  place_street: StreetRuleTable;
  collection_day: CollectionDayTable;
  collection_exception: CollectionExceptionTable;
  attached_location: AttachedLocationTable;
  recycling_point: RecyclingPointTable;
  recycling_point_material: RecyclingPointMaterialTable;
  quiz_question: QuizQuestionTable;
  challenge: ChallengeTable;
  badge: BadgeTable;
  serie: SerieTable;
  serie_question: SerieQuestionTable;
  challenge_completion: ChallengeCompletionTable;
  blog_post: BlogPostTable;
  site: SiteTable;
  page: PageTable;
  menu: MenuTable;
  menu_item: MenuItemTable;
  media: MediaTable;
  conversation: ConversationTable;
  message: MessageTable;
  ticket: TicketTable;
  llm_usage: LlmUsageTable;
  data_version: DataVersionTable;
  account: AccountTable;
  account_city_group: AccountCityGroupTable;
  refresh_session: RefreshSessionTable;
  login_attempt: LoginAttemptTable;
  audit_entry: AuditEntryTable;
  search_count: SearchCountTable;
}
