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
  /** The contact block citizens see (migration 0011); each null when not published. */
  contact_phone: string | null;
  contact_email: string | null;
  contact_hours: string | null;
  contact_address: string | null;
  /** The `https://` origins that may frame the group's widgets (migration 0024). */
  embed_origins: Generated<string[]>;
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
  /** FR or FR-ALSACE-MOSELLE (migration 0018). */
  holiday_calendar: Generated<'FR' | 'FR-ALSACE-MOSELLE'>;
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
  /** A GeoJSON Polygon or MultiPolygon (docs/api.md, from an address to a collection place), written as JSON text. */
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
  /** CANCEL, MOVE or ADD (migration 0018). */
  kind: Generated<'CANCEL' | 'MOVE' | 'ADD'>;
  /** MOVE: the day the collection takes place instead; null otherwise. */
  moved_to: Timestamp | null;
}

/** A city group's rule for collections on a public holiday (migration 0018). */
export interface HolidayRuleTable {
  city_group_id: string;
  /** The rule's place in the group's list, from 0. */
  position: number;
  /** A holiday key (src/kernel/holidays.ts) or `*`. */
  holiday: string;
  /** null: every waste type of the group. */
  waste_type_id: string | null;
  action: 'KEEP' | 'CANCEL' | 'NEXT_DAY' | 'PREVIOUS_DAY' | 'SHIFT_WEEK';
}

/** Where an occurrence of a place's iCalendar feed was last published and its SEQUENCE (migration 0018). */
export interface CalendarSequenceTable {
  place_id: string;
  waste_type_id: string;
  planned_date: string;
  date: string;
  status: string;
  sequence: number;
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
  /** 0 to 100: the best score that earns the badge (migration 0011). */
  passing_score: Generated<number>;
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

export interface CannedReplyTable {
  id: string;
  city_group_id: string;
  title: string;
  content: string;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

/** A question residents ask the city group, answered once, one row of its list (docs/api.md, frequently asked questions; migration 0026). */
export interface FaqEntryTable {
  id: string;
  city_group_id: string;
  question: string;
  answer: string;
  /** The group's order, smallest first; ties: the oldest first. */
  position: Generated<number>;
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
  /** Moved by every insert and update (migration 0013): the live inbox's cursor. */
  change_seq: Generated<string>;
  /** The built-in assistant's state of the conversation (migration 0016, chat/question.ts's AssistantState), or null. */
  assistant_state: ColumnType<unknown | null, string | null | undefined, string | null>;
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

/** One day's searches of one normalised query in one city (docs/api.md, what citizens search): nothing that identifies a citizen. */
/** What citizens ask the assistant, per day, city and topic (migration 0016); `question` only for the unanswered. */
export interface ChatCountTable {
  day: ColumnType<string, string, string>;
  city_id: string;
  topic: string;
  question: string;
  count: number;
}

export interface SearchCountTable {
  /** The city's calendar day, written `YYYY-MM-DD`. */
  day: ColumnType<string, string, string>;
  city_id: string;
  query: string;
  /** The latest search of that query as typed, lower case, accents kept (migration 0025); null before it. */
  shown: string | null;
  found: boolean;
  count: number;
}

/** Keys generated once and shared by every instance (migration 0010): the VAPID pair, the link-signing key. */
export interface ReminderSettingTable {
  name: string;
  value: string;
}

export type ReminderChannel = 'WEB_PUSH' | 'EMAIL';
export type ReminderStatus = 'ACTIVE' | 'PENDING';

/** A device's reminder subscription for one place (docs/api.md, reminders). */
export interface ReminderSubscriptionTable {
  id: string;
  device_id: string;
  city_id: string;
  place_id: string;
  /** The waste types asked for; [] means every waste type of the place. */
  waste_type_ids: ColumnType<string[], string, string>;
  /** `HH:MM` in the city's time zone, the evening before each collection. */
  time_of_day: string;
  channel: ReminderChannel;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  /** Lowercased. */
  email: string | null;
  status: ReminderStatus;
  /** Origin of the subscribing request: the links of later messages start with it when PUBLIC_BASE_URL is unset. */
  origin: string;
  /** The last collection day (YYYY-MM-DD) the planner has handled for this subscription. */
  planned_day: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** NOTICE: a service notice (migration 0019). */
export type DeliveryKind = 'REMINDER' | 'ALERT' | 'NOTICE';
/** SKIPPED: not sent, because what it said stopped being true after it was planned (migration 0019; `last_error` says why). */
export type DeliveryStatus = 'PENDING' | 'SENDING' | 'SENT' | 'FAILED' | 'SKIPPED';

/** The delivery ledger and job queue: one row per subscription and message, unique (migration 0010). */
export interface ReminderDeliveryTable {
  id: Generated<string>;
  subscription_id: string;
  kind: DeliveryKind;
  /** REMINDER: the collection day, YYYY-MM-DD; ALERT: the change's key; NOTICE: `NOTICE-<notice id>`. */
  key: string;
  status: DeliveryStatus;
  /** What is sent: {title, body, url, tag}. */
  message: ColumnType<{ title: string; body: string; url: string; tag: string }, string, string>;
  /** Nothing is sent after this instant (the collection day has begun). */
  expires_at: Timestamp;
  /** Due from this instant; while SENDING, the end of the claiming worker's lease. */
  run_after: Timestamp;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

/** A place's collections over the alert window as last seen (migration 0010). */
export interface ReminderPlaceCalendarTable {
  place_id: string;
  data_version: ColumnType<string | number, number, number>;
  /** First and last day of the window, YYYY-MM-DD. */
  from_day: string;
  to_day: string;
  /** `YYYY-MM-DD|wasteTypeId` of each collection in the window. */
  occurrences: ColumnType<string[], string, string>;
}

export type NoticeSeverity = 'INFO' | 'WARNING';

/** What a city group tells its residents for a while (docs/api.md, collections that move and service notices, migration 0019). */
export interface ServiceNoticeTable {
  id: string;
  city_group_id: string;
  /** [] (with place_ids []): the whole group. */
  city_ids: ColumnType<string[], string[] | undefined, string[]>;
  /** []: every place of `city_ids` (or of the group). */
  place_ids: ColumnType<string[], string[] | undefined, string[]>;
  title: string;
  body: string;
  severity: NoticeSeverity;
  starts_at: Timestamp;
  /** null: in force until deleted. */
  ends_at: Timestamp | null;
  notify: Generated<boolean>;
  /** When the reminder worker put the notice in the delivery ledger; null until then (or without `notify`). */
  notified_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type Requirement = 'NONE' | 'OPTIONAL' | 'REQUIRED';
export type RequestCategory = 'COLLECTE' | 'BAC' | 'POINT_APPORT' | 'PROPRETE' | 'ENCOMBRANTS' | 'AUTRE';
export type RequestStatus = 'RECUE' | 'EN_COURS' | 'PLANIFIEE' | 'RESOLUE' | 'REJETEE' | 'ANNULEE';
/** A calendar day column (`date`), read as `YYYY-MM-DD` (the repository casts it to text). */
type Day = ColumnType<string, string, string>;

/** A kind of request of a city group's catalogue (docs/api.md, resident requests, migration 0020). */
export interface RequestTypeTable {
  id: Generated<string>;
  city_group_id: string;
  code: string;
  name: string;
  description: string | null;
  category: RequestCategory;
  place: Requirement;
  position: Requirement;
  waste_type: Requirement;
  photo: Requirement;
  date: Requirement;
  recycling_point: Requirement;
  /** The extra questions: `[{code, label, datatype, required, values}]`. */
  fields: ColumnType<unknown[], string, string>;
  target_hours: number;
  active: Generated<boolean>;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

/** The last reference number handed out per group and year (migration 0020). */
export interface RequestCounterTable {
  city_group_id: string;
  year: number;
  last: number;
}

/** A resident's request (migration 0020). No IP is stored. */
export interface ResidentRequestTable {
  id: string;
  city_group_id: string;
  city_id: string;
  type_id: string;
  reference: string;
  status: RequestStatus;
  place_id: string | null;
  waste_type_id: string | null;
  date: Day | null;
  recycling_point_id: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
  description: string | null;
  email: string | null;
  attributes: ColumnType<Record<string, unknown>, string | undefined, string>;
  planned_for: Day | null;
  assigned_to: string | null;
  /** A missed collection's `placeId|wasteTypeId|date`: one open request per key. */
  duplicate_key: string | null;
  device_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When it becomes overdue: created plus its type's target (moved with the type's target while open). */
  due_at: Timestamp;
  closed_at: Timestamp | null;
  /** When retention erased what identifies the requester. */
  erased_at: Timestamp | null;
  /** Where the links of its e-mails start (PUBLIC_BASE_URL or the origin it was filed from). */
  origin: string | null;
  /** When the requester asked for no more e-mails about it. */
  mail_stopped_at: Timestamp | null;
  /** Its change number (migration 0021): moved by every insert and update, read by the live streams. */
  change_seq: Generated<string>;
}

/** Requests per group and status, kept by a trigger (migration 0020). */
export interface RequestCountTable {
  city_group_id: string;
  status: RequestStatus;
  n: ColumnType<string | number, number, number>;
}

/** A device that sees a request: its author, or one whose report joined it (migration 0020). */
export interface RequestFollowerTable {
  request_id: string;
  device_id: string;
  created_at: Timestamp;
}

/** A request's history: status changes and public replies, which its requester sees, and internal notes (migration 0020). */
export interface RequestUpdateTable {
  id: string;
  request_id: string;
  at: Timestamp;
  kind: 'STATUS' | 'REPLY' | 'NOTE';
  status: RequestStatus | null;
  message: string | null;
  author_id: string | null;
  author_name: string | null;
}

/** An e-mail owed to a requester: the receipt, or one per public update (migration 0020). */
/** A city's bulky-waste pickup day: its capacity and the bookings it holds (migration 0022). */
export interface BulkyPickupDayTable {
  city_id: string;
  day: Day;
  capacity: number;
  booked: Generated<number>;
  updated_at: Timestamp;
}

export interface RequestMailTable {
  id: string;
  request_id: string;
  update_id: string | null;
  /** `PICKUP_EVE`: a booking's evening-before message (migration 0022). */
  kind: 'RECEIPT' | 'UPDATE' | 'PICKUP_EVE';
  status: 'PENDING' | 'SENDING' | 'SENT' | 'FAILED' | 'SKIPPED';
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  last_error: string | null;
}

/** E-mails sent to one mailbox (its SHA-256) on one day (migration 0020). */
export interface MailboxDayTable {
  mailbox: string;
  day: Day;
  sent: number;
}

/** A photo re-encoded without metadata; `request_id` null until a request takes it (migration 0020). */
export interface RequestPhotoTable {
  id: string;
  request_id: string | null;
  content_type: string;
  width: number;
  height: number;
  bytes: Uint8Array;
  created_at: Timestamp;
}

/** An Open311 partner's API key (migration 0023): only its SHA-256 is kept. */
export interface Open311KeyTable {
  id: string;
  city_group_id: string;
  name: string;
  /** SHA-256 of the key, hex. */
  key_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_used_at: Timestamp | null;
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
  holiday_rule: HolidayRuleTable;
  calendar_sequence: CalendarSequenceTable;
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
  chat_count: ChatCountTable;
  reminder_setting: ReminderSettingTable;
  reminder_subscription: ReminderSubscriptionTable;
  reminder_delivery: ReminderDeliveryTable;
  canned_reply: CannedReplyTable;
  faq: FaqEntryTable;
  reminder_place_calendar: ReminderPlaceCalendarTable;
  service_notice: ServiceNoticeTable;
  request_type: RequestTypeTable;
  request_counter: RequestCounterTable;
  resident_request: ResidentRequestTable;
  request_count: RequestCountTable;
  request_follower: RequestFollowerTable;
  request_update: RequestUpdateTable;
  request_photo: RequestPhotoTable;
  request_mail: RequestMailTable;
  bulky_pickup_day: BulkyPickupDayTable;
  mailbox_day: MailboxDayTable;
  open311_key: Open311KeyTable;
}
