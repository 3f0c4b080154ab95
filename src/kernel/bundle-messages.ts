/**
 * What is wrong with an import bundle (docs/bundle.md), in French for the operator who runs `collecte import`.
 * Each message follows the JSON path of the faulty field (`cities[0].timeZone: n’est pas un fuseau horaire IANA
 * connu…`): it is the rest of a sentence whose subject is that field, lowercase, without a final period. The admin
 * API will check the records it writes with the same rules, and so say the same words.
 *
 * Tests and operators' scripts read these verbatim: change one only on purpose. (They keep plain spaces inside « ».)
 * How the faults of the bundle's JSON schema read is in validation-messages.ts, which re-exports this file.
 */

/** The parents a row of the bundle can have, by table, as a fault about a move names them. */
const PARENT_NAMES = {
  city_group: 'le groupe de villes',
  city: 'la ville',
  waste_type: 'le type de déchet',
  collection_place: 'le lieu de collecte',
  challenge: 'le défi',
  site: 'le site',
  menu: 'le menu',
} as const;

export type BundleParentTable = keyof typeof PARENT_NAMES;

/** What MDX content can nest too deeply (src/domain/rules/mdx-nesting.ts), as a fault about it names it. */
const MDX_NESTING_NAMES = {
  brackets: 'crochets',
  braces: 'accolades',
  tags: 'balises',
  containers: 'citations ou de listes',
} as const;

export type MdxNesting = keyof typeof MDX_NESTING_NAMES;

/** The faults of the bundle's rules, after its schema: one function per rule, its parameters the values it names. */
export const bundleMessages = {
  // The file itself.
  notJson: (reason: string) => `le fichier n’est pas un JSON valide (${reason})`,

  // What must be unique within the bundle; `first` is the JSON path of the entry that holds it.
  idTaken: (id: string, first: string) => `l’identifiant ${id} est déjà utilisé par ${first}`,
  slugTaken: (slug: string, first: string) => `le slug « ${slug} » est déjà celui de ${first}`,
  menuLocationTaken: (location: string, first: string) => `l’emplacement « ${location} » est déjà celui de ${first}`,

  // References inside a city or a site, and lists that name a thing twice.
  notAWasteTypeOfTheCity: (id: string) => `ne désigne aucun type de déchet de cette ville (${id})`,
  notAQuizQuestionOfTheCity: (id: string) => `ne désigne aucune question de quiz de cette ville (${id})`,
  notAChallengeOfTheCity: (id: string) => `ne désigne aucun défi de cette ville (${id})`,
  notAPageOfTheSite: (id: string) => `ne désigne aucune page de ce site (${id})`,
  notAnItemOfTheMenu: (id: string) => `ne désigne aucun élément de ce menu (${id})`,
  menuItemCycle: 'ne peut désigner ni l’élément lui-même ni l’un de ses sous-éléments',
  wasteTypeTwice: (id: string) => `le type de déchet ${id} figure déjà dans cette liste`,
  questionTwiceInSerie: (id: string) => `la question ${id} figure déjà dans cette série`,

  // Rules of one record.
  siretOfAnotherSiren: (siren: string) => `doit commencer par le SIREN du groupe (${siren})`,
  unknownTimeZone: 'n’est pas un fuseau horaire IANA connu (par exemple Europe/Paris)',
  startDateOfBiweekly: 'est obligatoire pour une collecte une semaine sur deux (biweekly)',
  /** An end date before the start date the message names (`dateFrom`, `startDate`). */
  endsBefore: (startField: string) => `doit être une date égale ou postérieure à ${startField}`,
  /** An exception's field that its kind needs (`movedTo` for MOVE)… */
  requiredForKind: (kind: string) => `est obligatoire quand kind vaut ${kind}`,
  /** …and that its kind leaves null (`movedTo` unless MOVE, `dateTo` for MOVE and ADD). */
  nullForKind: (kinds: string) => `doit être null quand kind vaut ${kinds}`,
  /** A move that lands too far from, or on, its planned day. */
  movedTooFar: (days: number) => `doit être un autre jour que dateFrom, à ${days}\u00a0jours au plus avant ou après`,
  /** Two holiday rules of a group for the same holiday and waste type (`first` is the first one's path). */
  holidayRuleTwice: (first: string) => `reprend le jour férié et le type de déchet de ${first}`,
  notAWasteTypeOfTheGroup: (id: string) => `ne désigne aucun type de déchet des villes de ce groupe (${id})`,
  /** A menu item's field that its link type needs (`pageId` for PAGE, `externalUrl` for EXTERNAL)… */
  requiredForLinkType: (linkType: string) => `est obligatoire quand linkType vaut ${linkType}`,
  /** …and that any other link type leaves null. */
  nullUnlessLinkType: (linkType: string) => `doit être null quand linkType ne vaut pas ${linkType}`,
  notAnAbsoluteUrl: 'doit être une URL absolue (https://…)',
  /** A text agents read and send (a canned reply's title or content): its schema's limits, in one sentence. */
  textLengthNotBlank: (max: number) => `doit contenir de 1 à ${max} caractères, pas seulement des espaces`,
  /** A link whose scheme is none of http, https, mailto and tel (`javascript:`, `data:`…); `protocol` as the URL parser reads it. */
  linkProtocolNotAllowed: (protocol: string) => `doit être un lien http, https, mailto ou tel (« ${protocol} » n’est pas accepté)`,
  openingHoursEmpty: 'ne doit pas être vide (null quand les horaires ne sont pas connus)',
  /** A spec the `opening_hours` library refuses, with its reason (in French: the library is asked for it). */
  openingHoursInvalid: (reason: string) => `n’est pas une valeur opening_hours d’OpenStreetMap valide (${reason})`,
  openingHoursApproximate: (corrected: string) =>
    `n’est lu qu’approximativement par les outils OpenStreetMap\u00a0: écrivez «\u00a0${corrected}\u00a0» (jours Mo Tu We Th Fr Sa Su, heures 09:00-18:00)`,
  // A place's streets and area (docs/api.md, from an address to a collection place).
  streetNumberBelowOne: 'doit être un numéro égal ou supérieur à 1 (null\u00a0: sans limite)',
  streetNumbersReversed: 'doit être égal ou supérieur à fromNumber',
  /** `other`: where the other rule is (a JSON path of the bundle, or a rule and its place in the database). */
  streetRuleOverlaps: (street: string, other: string) =>
    `recouvre les numéros de la rue « ${street} » déjà attribués à un autre lieu de collecte par ${other}`,
  streetRuleInDatabase: (ruleId: string, placeName: string, placeId: string) =>
    `la règle ${ruleId} du lieu de collecte « ${placeName} » (${placeId})`,
  areaType: 'doit être un Polygon ou un MultiPolygon GeoJSON',
  areaNotAList: 'doit être une liste',
  areaPolygonEmpty: 'doit contenir au moins un anneau',
  areaMultiPolygonEmpty: 'doit contenir au moins un polygone',
  areaRingTooShort: 'doit compter au moins 4 positions (un anneau fermé)',
  areaRingNotClosed: 'doit se refermer\u00a0: sa dernière position doit être égale à la première',
  areaRingSelfIntersects: (a: number, b: number) =>
    `ne doit pas se croiser\u00a0: ses côtés partant des positions ${a} et ${b} se coupent`,
  areaNotAPosition: 'doit être une position [longitude, latitude] en nombres',
  areaLongitude: 'doit être une longitude entre -180 et 180',
  areaLatitude: 'doit être une latitude entre -90 et 90',
  /** MDX that does not compile, where (when the compiler says) and why, in the compiler's words. */
  mdxDoesNotCompile: (reason: string, line?: number, column?: number) =>
    `n’est pas du MDX valide${line != null ? ` (ligne ${line}${column != null ? `, colonne ${column}` : ''})` : ''}\u00a0: ${reason}`,
  /**
   * MDX nesting deeper than `max` levels, refused before compiling (the compiler's time grows faster than the
   * content); where the level too many opens, in the words mdxDoesNotCompile uses.
   */
  mdxTooNested: (max: number, nesting: MdxNesting, line: number, column: number) =>
    `est trop imbriqué (ligne ${line}, colonne ${column})\u00a0: plus de ${max} niveaux de ${MDX_NESTING_NAMES[nesting]}, simplifiez-le`,
  /** MDX whose compilation ran past its time limit, and was stopped. */
  mdxTooSlowToCompile: 'est trop long à compiler\u00a0: découpez-le ou simplifiez-le',

  // Media files, read from the bundle's folder.
  mediaPathNotRelative: 'doit être un chemin relatif au fichier du lot',
  mediaPathOutsideBundle: 'ne doit pas sortir du dossier du lot',
  mediaPathNotAFile: 'ne désigne pas un fichier',
  mediaFileNotFound: 'le fichier est introuvable',
  mediaFileNotReadable: 'le fichier n’est pas lisible',
  mediaFileUnreadable: (code: string | undefined) => `le fichier ne peut pas être lu (${code ?? 'erreur inconnue'})`,
  mediaTypeMismatch: (detected: string) => `ne correspond pas au fichier, qui est de type ${detected}`,
  mediaTypeRequired: 'est obligatoire pour un fichier qui n’est pas une image',
  mediaNotAnImage: (claimed: string) => `le fichier n’est pas une image lisible de type ${claimed}`,

  // Checked against the database.
  unknownCityGroup: (id: string) => `ne désigne aucun groupe de villes du lot ni de la base (${id})`,
  /** An id the database holds under another parent (another city, site, menu…): rows pointing at it would break. */
  parentChanged: (id: string, parent: BundleParentTable, parentId: string) =>
    `l’identifiant ${id} appartient déjà à ${PARENT_NAMES[parent]} ${parentId} dans la base ; un élément ne change pas de parent`,
  slugTakenInDatabase: (slug: string, siteId: string) => `est déjà pris par le site ${siteId} (« ${slug} »)`,
  pageSlugTaken: (slug: string, pageId: string) => `est déjà pris par la page ${pageId} de ce site (« ${slug} »)`,
  menuLocationTakenInSite: (location: string, menuId: string) => `est déjà pris par le menu ${menuId} de ce site (« ${location} »)`,
  /** A unique value another write took at the same moment. */
  valueTaken: 'est déjà pris par un autre élément',
  challengeRequiresItself: 'un défi ne peut pas se requérir lui-même',
  unknownChallenge: (id: string) => `ne désigne aucun défi du lot ni de la base (${id})`,
  /** `chain`: the challenge, what it requires, and so on back to itself. */
  requirementCycle: (chain: string[]) => `forme un cycle de défis requis (${chain.join(' → ')})`,
};
