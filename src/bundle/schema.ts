import { Type, type Static, type TOptional, type TProperties, type TSchema } from 'typebox';
import { FRENCH_WEEKDAYS } from '../kernel/dates.ts';
import { CityNoticeFields, Nullable, WasteTypeDetailDisplayFields, WasteTypeDisplayFields } from '../kernel/schemas.ts';
import { BUNDLE_PATTERN_MESSAGES as explained, bundleMessages } from '../kernel/validation-messages.ts';
import { PHONE_PATTERN } from '../kernel/schemas.ts';
import { MAX_MESSAGE_LENGTH } from '../chat/schemas.ts';
import { MAX_CANNED_TITLE_LENGTH } from '../console/schemas.ts';
import { MAX_FAQ_ANSWER_LENGTH, MAX_FAQ_POSITION, MAX_FAQ_QUESTION_LENGTH } from '../faq/schemas.ts';
import { MAX_STREET_NUMBER } from '../cities/place-rules.ts';
import { ExceptionKindSchema, HolidayCalendarSchema, holidayRuleSchema, MovedToDescription } from '../domain/city-model/schemas.ts';

/**
 * The import bundle (docs/bundle.md): one JSON file holding the same shapes the API returns,
 * plus the fields the API keeps to itself. Field names are the API's camelCase names.
 *
 * Every key at the top is optional, and so is every optional field: absent means null (or [] for
 * an array). Optional fields also accept an explicit null, so that a document the API returned
 * can be fed back. Unknown fields are ignored.
 */

/** Lowercase or uppercase canonical UUID; ids are stored lowercase. */
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** #RGB, #RRGGBB or #RRGGBBAA. */
const HEX_COLOR_PATTERN = '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$';

// `errorMessage` is read by the validator (src/bundle/schema-faults.ts) to explain a failed pattern in French.
const Id = Type.String({ pattern: UUID_PATTERN, errorMessage: explained.uuid });
const Text = Type.String({ minLength: 1 });
const Timestamp = Type.String({ format: 'date-time' });
const HexColor = Type.String({
  pattern: HEX_COLOR_PATTERN,
  errorMessage: explained.hexColor,
});

/** An optional field: absent, null, or a value. */
function Opt<T extends TSchema>(schema: T) {
  return Type.Optional(Nullable(schema));
}

/** Fields the API always returns, null when unset (kernel/schemas.ts), as the bundle takes them: each may be left out. */
function OptionalFields<Fields extends TProperties>(fields: Fields): { [K in keyof Fields]: TOptional<Fields[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof Fields]: TOptional<Fields[K]>;
  };
}

/** An optional list: absent, null or [] all mean "none". */
function List<T extends TSchema>(schema: T) {
  return Type.Optional(Type.Union([Type.Array(schema), Type.Null()]));
}

/** `createdAt` / `updatedAt`, taken from the bundle when given, else set at import. */
const Dates = {
  createdAt: Opt(Timestamp),
  updatedAt: Opt(Timestamp),
};

export const WEEKDAY_NAMES = FRENCH_WEEKDAYS;

/** How a challenge, its series and its badge start: an id, a name and an optional description. */
const Described = {
  id: Id,
  name: Text,
  description: Opt(Type.String()),
};

/** Text an agent reads and sends: not blank, at most `max` characters (the admin API's limits). */
const AgentText = (max: number) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', errorMessage: bundleMessages.textLengthNotBlank(max) });

/** A canned reply of the group's console (the « réponses types » its agents pick by title in the chat inbox). */
export const BundleCannedReplySchema = Type.Object({
  id: Id,
  title: AgentText(MAX_CANNED_TITLE_LENGTH),
  content: AgentText(MAX_MESSAGE_LENGTH),
  ...Dates,
});

/** A frequently asked question of the group, with its answer (docs/api.md, frequently asked questions). */
export const BundleFaqEntrySchema = Type.Object({
  id: Id,
  question: AgentText(MAX_FAQ_QUESTION_LENGTH),
  answer: AgentText(MAX_FAQ_ANSWER_LENGTH),
  /** Where it comes in the list, smallest first (ties: the oldest first); 0 when absent. */
  position: Opt(Type.Integer({ minimum: 0, maximum: MAX_FAQ_POSITION })),
  ...Dates,
});

export const BundleCityGroupSchema = Type.Object({
  id: Id,
  name: Text,
  /** Category of group, for example "Métropole" or "Communauté de communes". */
  type: Text,
  code: Text,
  siren: Type.String({ pattern: '^[0-9]+$', errorMessage: explained.digits }),
  /** 14 digits, the SIREN then the establishment's NIC: `COLL_SIRET` of the SCDL export (the SIREN when absent). */
  siret: Opt(Type.String({ pattern: '^[0-9]{14}$', errorMessage: explained.siret })),
  /** The chat assistant module (docs/assistant.md); false when absent. */
  chatEnabled: Opt(Type.Boolean()),
  /** The contact block shown to citizens (domain/group-contact.ts); each optional. */
  contactPhone: Opt(Type.String({ pattern: PHONE_PATTERN, maxLength: 32, errorMessage: explained.phone })),
  contactEmail: Opt(Type.String({ format: 'email', maxLength: 254 })),
  contactHours: Opt(Type.String({ minLength: 1, maxLength: 500 })),
  contactAddress: Opt(Type.String({ minLength: 1, maxLength: 500 })),
  ...Dates,
  /**
   * The group's canned replies, all of them: those the database holds and the list leaves out are deleted. Absent or
   * null (a bundle written before they were exported) leaves the stored ones alone, unlike the other lists: agents
   * write them in the console, and re-importing an older bundle must not wipe them. [] deletes them all.
   */
  cannedReplies: List(BundleCannedReplySchema),
  /**
   * The group's frequently asked questions, all of them, like cannedReplies: absent or null (a bundle written before
   * they were exported) leaves the stored ones alone, [] deletes them all.
   */
  faq: List(BundleFaqEntrySchema),
  /**
   * The group's holiday rules (docs/api.md, collections that move and service notices), all of them, in order. Absent or null (a bundle written before
   * they existed) leaves the stored ones alone, like cannedReplies: they are written in the console's « Jours fériés »
   * screen. [] deletes them all.
   */
  holidayRules: List(holidayRuleSchema(Id)),
});

export const BundleWasteTypeDetailSchema = Type.Object({
  id: Id,
  material: Text,
  ...OptionalFields(WasteTypeDetailDisplayFields),
});

export const BundleWasteTypeSchema = Type.Object({
  id: Id,
  name: Text,
  ...OptionalFields(WasteTypeDisplayFields(HexColor)),
  details: List(BundleWasteTypeDetailSchema),
});

export const BundleCollectionDaySchema = Type.Object({
  id: Id,
  /** French weekday name, lowercase. */
  name: Type.Union([
    Type.Literal('lundi'),
    Type.Literal('mardi'),
    Type.Literal('mercredi'),
    Type.Literal('jeudi'),
    Type.Literal('vendredi'),
    Type.Literal('samedi'),
    Type.Literal('dimanche'),
  ]),
  /** A waste type of the same city. */
  wasteTypeId: Id,
  description: Opt(Type.String()),
  biweekly: Opt(Type.Boolean()),
  /** First day the rule applies; required when biweekly. */
  startDate: Opt(Timestamp),
});

export const BundleCollectionExceptionSchema = Type.Object({
  id: Id,
  dateFrom: Timestamp,
  /** CANCEL: null for the day of dateFrom only. Null for MOVE and ADD. */
  dateTo: Opt(Timestamp),
  /** A waste type of the same city. */
  wasteTypeId: Id,
  name: Opt(Type.String()),
  description: Opt(Type.String()),
  /** CANCEL when absent. */
  kind: Opt(ExceptionKindSchema),
  movedTo: Opt(Type.String({ format: 'date-time', description: MovedToDescription })),
});

export const BundleAttachedLocationSchema = Type.Object({
  id: Id,
  name: Text,
  reference: Type.String(),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
});

export const StreetSideSchema = Type.Union([Type.Literal('ALL'), Type.Literal('ODD'), Type.Literal('EVEN')]);

/** One street rule of a place (docs/api.md, from an address to a collection place); numbers inclusive, null an open end (cities/place-rules.ts). */
export const BundleStreetRuleSchema = Type.Object({
  id: Id,
  street: Text,
  fromNumber: Opt(Type.Integer({ maximum: MAX_STREET_NUMBER })),
  toNumber: Opt(Type.Integer({ maximum: MAX_STREET_NUMBER })),
  side: StreetSideSchema,
});

/** A GeoJSON Polygon or MultiPolygon; its structure and ranges are the rules' (cities/place-rules.ts), in French. */
export const AreaSchema = Type.Object({
  type: Type.String(),
  coordinates: Type.Array(Type.Unknown()),
});

export const BundleCollectionPlaceSchema = Type.Object({
  id: Id,
  name: Text,
  collectionDays: List(BundleCollectionDaySchema),
  exceptions: List(BundleCollectionExceptionSchema),
  attachedLocations: List(BundleAttachedLocationSchema),
  streets: List(BundleStreetRuleSchema),
  area: Opt(AreaSchema),
});

export const BundleRecyclingPointSchema = Type.Object({
  id: Id,
  name: Text,
  address: Opt(Type.String()),
  latitude: Opt(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Opt(Type.Number({ minimum: -180, maximum: 180 })),
  /** Free text. */
  openingHours: Opt(Type.String()),
  /** OpenStreetMap `opening_hours` syntax (`Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off`); must parse. */
  openingHoursSpec: Opt(Type.String()),
  /** CENTRE: a déchèterie; CONTAINER: a bin; SHOP: a take-back shop; null: not said. */
  kind: Opt(Type.Union([Type.Literal('CENTRE'), Type.Literal('CONTAINER'), Type.Literal('SHOP')])),
  /** Waste types of the same city that the point takes. */
  materials: List(Id),
});

export const BundleQuizQuestionSchema = Type.Object({
  id: Id,
  material: Text,
  question: Text,
  /** A waste type of the same city. */
  correctWasteTypeId: Id,
  /** 0 when absent. */
  order: Opt(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
});

export const BundleBadgeSchema = Type.Object({
  ...Described,
  icon: Opt(Type.String()),
  imageUrl: Opt(Type.String()),
});

export const BundleSerieSchema = Type.Object({
  ...Described,
  order: Opt(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  /** Quiz questions of the same city; a serie may have none. */
  quizQuestionIds: List(Id),
});

export const BundleChallengeSchema = Type.Object({
  ...Described,
  /** true when absent. */
  enabled: Opt(Type.Boolean()),
  startDate: Opt(Timestamp),
  /** null: no end. */
  endDate: Opt(Timestamp),
  order: Opt(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  /** A challenge of the bundle or already in the database; no cycles. */
  requiredChallengeId: Opt(Id),
  /** The pass mark in %, an integer from 0 to 100: the badge needs a best score at or above it; 60 when absent. */
  passingScore: Opt(Type.Integer({ minimum: 0, maximum: 100 })),
  badge: Opt(BundleBadgeSchema),
  series: List(BundleSerieSchema),
});

export const BundleCitySchema = Type.Object({
  id: Id,
  name: Text,
  country: Text,
  population: Opt(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  status: Type.Union([Type.Literal('ACTIF'), Type.Literal('NON_ACTIF')]),
  /** IANA time zone the collection dates are computed in; Europe/Paris when absent. */
  timeZone: Opt(Type.String()),
  /** FR when absent. */
  holidayCalendar: Opt(HolidayCalendarSchema),
  ...OptionalFields(CityNoticeFields),
  /** A group of the bundle or of the database. */
  cityGroupId: Opt(Id),
  ...Dates,
  wasteTypes: List(BundleWasteTypeSchema),
  wasteCollectionPlaces: List(BundleCollectionPlaceSchema),
  recyclingPoints: List(BundleRecyclingPointSchema),
  quizQuestions: List(BundleQuizQuestionSchema),
  challenges: List(BundleChallengeSchema),
});

export const BundleBlogPostSchema = Type.Object({
  id: Id,
  title: Text,
  /** MDX; must compile. */
  content: Type.String(),
  /** false when absent. */
  published: Opt(Type.Boolean()),
  publishedAt: Opt(Timestamp),
  /** A group of the bundle or of the database. */
  cityGroupId: Id,
  ...Dates,
});

export const BundlePageSchema = Type.Object({
  id: Id,
  title: Text,
  slug: Text,
  /** '' when absent. */
  content: Opt(Type.String()),
  seoTitle: Opt(Type.String()),
  seoDescription: Opt(Type.String()),
  /** Served only once publishedAt <= now; never when null. */
  publishedAt: Opt(Timestamp),
  ...Dates,
});

export interface BundleMenuItem {
  id: string;
  label: string;
  linkType: 'PAGE' | 'EXTERNAL' | 'NONE';
  /** A page of the same site; required for PAGE. */
  pageId?: string | null;
  /** Required for EXTERNAL. */
  externalUrl?: string | null;
  /** Position among its siblings; 0 when absent. */
  order?: number | null;
  children?: BundleMenuItem[] | null;
}

export const BundleMenuItemSchema = Type.Cyclic(
  {
    MenuItem: Type.Object({
      id: Id,
      label: Text,
      linkType: Type.Union([Type.Literal('PAGE'), Type.Literal('EXTERNAL'), Type.Literal('NONE')]),
      pageId: Opt(Id),
      externalUrl: Opt(Type.String()),
      order: Opt(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
      children: List(Type.Ref('MenuItem')),
    }),
  },
  'MenuItem',
);

export const BundleMenuSchema = Type.Object({
  id: Id,
  name: Text,
  /** Unique within the site, typically header or footer. */
  location: Text,
  items: List(BundleMenuItemSchema),
});

export const BundleSiteSchema = Type.Object({
  id: Id,
  name: Text,
  /** Unique across all sites. */
  slug: Text,
  type: Type.Union([Type.Literal('SITE'), Type.Literal('APP')]),
  domain: Opt(Type.String()),
  /** {} when absent. */
  settings: Opt(Type.Record(Type.String(), Type.Unknown())),
  /** Matters for an APP only. */
  theme: Opt(Type.Record(Type.String(), Type.Unknown())),
  cityGroupId: Opt(Id),
  ...Dates,
  pages: List(BundlePageSchema),
  menus: List(BundleMenuSchema),
});

export const BundleMediaSchema = Type.Object({
  id: Id,
  /** Name shown to clients; the base name of `path` when absent. */
  filename: Opt(Text),
  /** Checked against the file; detected from the file when absent (images only). */
  mimeType: Opt(Type.String({ pattern: '^[a-z]+/[a-zA-Z0-9.+-]+$', errorMessage: explained.mimeType })),
  /** Served to the public only when true; false when absent. */
  public: Opt(Type.Boolean()),
  alt: Opt(Type.String()),
  /** The city group whose agents manage it (CMS); absent: super admins only. */
  cityGroupId: Opt(Id),
  /** The file, relative to the bundle file; must stay inside the bundle's folder. */
  path: Text,
  ...Dates,
});

export const BundleSchema = Type.Object({
  cityGroups: List(BundleCityGroupSchema),
  cities: List(BundleCitySchema),
  blogPosts: List(BundleBlogPostSchema),
  sites: List(BundleSiteSchema),
  media: List(BundleMediaSchema),
});

export type WeekdayName = (typeof WEEKDAY_NAMES)[number];
export type BundleCannedReply = Static<typeof BundleCannedReplySchema>;
export type BundleFaqEntry = Static<typeof BundleFaqEntrySchema>;
export type BundleCityGroup = Static<typeof BundleCityGroupSchema>;
export type BundleWasteTypeDetail = Static<typeof BundleWasteTypeDetailSchema>;
export type BundleWasteType = Static<typeof BundleWasteTypeSchema>;
export type BundleCollectionDay = Static<typeof BundleCollectionDaySchema>;
export type BundleCollectionException = Static<typeof BundleCollectionExceptionSchema>;
export type BundleAttachedLocation = Static<typeof BundleAttachedLocationSchema>;
export type BundleCollectionPlace = Static<typeof BundleCollectionPlaceSchema>;
export type BundleStreetRule = Static<typeof BundleStreetRuleSchema>;
export type Area = Static<typeof AreaSchema>;
export type BundleRecyclingPoint = Static<typeof BundleRecyclingPointSchema>;
export type BundleQuizQuestion = Static<typeof BundleQuizQuestionSchema>;
export type BundleBadge = Static<typeof BundleBadgeSchema>;
export type BundleSerie = Static<typeof BundleSerieSchema>;
export type BundleChallenge = Static<typeof BundleChallengeSchema>;
export type BundleCity = Static<typeof BundleCitySchema>;
export type BundleBlogPost = Static<typeof BundleBlogPostSchema>;
export type BundlePage = Static<typeof BundlePageSchema>;
export type BundleMenu = Omit<Static<typeof BundleMenuSchema>, 'items'> & { items?: BundleMenuItem[] | null };
export type BundleSite = Omit<Static<typeof BundleSiteSchema>, 'menus'> & { menus?: BundleMenu[] | null };
export type BundleMedia = Static<typeof BundleMediaSchema>;
export type Bundle = Omit<Static<typeof BundleSchema>, 'sites'> & { sites?: BundleSite[] | null };
