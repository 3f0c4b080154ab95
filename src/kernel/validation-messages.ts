import type { FastifySchemaValidationError } from 'fastify';
import { PHONE_PATTERN, TIME_OF_DAY_PATTERN } from './schemas.ts';

/**
 * How schema validation failures read, in French: a request's (the first Ajv error, one sentence naming the faulty
 * field by its JSON name) and an import bundle's (every Ajv error, the rest of a sentence after the field's JSON
 * path). The bundle's other faults, those of its rules, are in bundle-messages.ts, re-exported here.
 */

export * from './bundle-messages.ts';

type Part = 'body' | 'querystring' | 'params' | 'headers' | string;

/** JSON types named in French, for every message about a value of the wrong type. */
export const TYPE_NAMES: Record<string, string> = {
  string: 'une chaîne de caractères',
  number: 'un nombre',
  integer: 'un nombre entier',
  boolean: 'un booléen (true ou false)',
  object: 'un objet JSON',
  array: 'un tableau',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  uuid: 'un UUID',
  date: 'une date au format AAAA-MM-JJ',
  'date-time': 'un horodatage ISO 8601',
  uri: 'une URL',
  email: 'une adresse e-mail',
};

/** A bound as French typography writes it: `100 000`, `0,5`. */
const frenchNumber = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 20 });
const bound = (limit: unknown) => (typeof limit === 'number' ? frenchNumber.format(limit) : String(limit));

function fieldName(error: FastifySchemaValidationError): string | null {
  const pointer = (error.instancePath ?? '').split('/').filter(Boolean).map(decodePointer);
  const params = (error.params ?? {}) as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer.push(params.missingProperty);
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer.push(params.additionalProperty);
  }
  if (pointer.length === 0) return null;
  return pointer.reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function subject(part: Part, field: string | null): string {
  if (field === null) {
    if (part === 'body') return 'Le corps de la requête';
    if (part === 'querystring') return 'La chaîne de requête';
    return 'La requête';
  }
  if (part === 'body') return `Le champ « ${field} »`;
  if (part === 'headers') return `L’en-tête « ${field} »`;
  return `Le paramètre « ${field} »`;
}

function typeList(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' ou ');
}

/** The error a request's answer describes: a union yields one error per branch, the last being "anyOf". */
const mostTelling = (errors: FastifySchemaValidationError[]) => errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? errors[0];

/** The JSON name or path (`webPush.keys.p256dh`, `items[2].name`) of the field a request's message names, or null. */
export function validationField(errors: FastifySchemaValidationError[]): string | null {
  return fieldName(mostTelling(errors));
}

export function validationMessage(errors: FastifySchemaValidationError[], part: Part): string {
  const error = mostTelling(errors);
  const field = fieldName(error);
  const who = subject(part, field);
  const p = (error.params ?? {}) as Record<string, any>;
  switch (error.keyword) {
    case 'required':
      return `${who} est obligatoire.`;
    case 'type':
      return `${who} doit être ${typeList(p.type)}.`;
    case 'format':
      return `${who} doit être ${FORMAT_NAMES[p.format] ?? `au format ${p.format}`}.`;
    case 'minLength':
      return p.limit === 1 ? `${who} ne doit pas être vide.` : `${who} doit contenir au moins ${p.limit} caractères.`;
    case 'maxLength':
      return `${who} doit contenir au plus ${p.limit} caractères.`;
    case 'pattern':
      // NonBlank's pattern (kernel/schemas.ts): a text of spaces only.
      if (p.pattern === '\\S') return `${who} ne doit pas être vide ni ne contenir que des espaces.`;
      if (p.pattern === PHONE_PATTERN) return `${who} doit être un numéro de téléphone, par exemple 02 98 33 50 50.`;
      if (p.pattern === TIME_OF_DAY_PATTERN) return `${who} doit être une heure au format HH:MM, par exemple 19:00.`;
      return `${who} n’a pas le format attendu.`;
    case 'minimum':
      return `${who} doit être supérieur ou égal à ${bound(p.limit)}.`;
    case 'maximum':
      return `${who} doit être inférieur ou égal à ${bound(p.limit)}.`;
    case 'exclusiveMinimum':
      return `${who} doit être strictement supérieur à ${bound(p.limit)}.`;
    case 'exclusiveMaximum':
      return `${who} doit être strictement inférieur à ${bound(p.limit)}.`;
    case 'enum':
    case 'const': {
      const allowed = (p.allowedValues ?? (p.allowedValue !== undefined ? [p.allowedValue] : [])) as unknown[];
      return `${who} doit valoir ${allowed.map((v) => JSON.stringify(v)).join(', ')}.`;
    }
    case 'minItems':
      return `${who} doit contenir au moins ${p.limit} élément(s).`;
    case 'maxItems':
      return `${who} doit contenir au plus ${p.limit} éléments.`;
    case 'additionalProperties':
      return `${who} n’est pas accepté.`;
    case 'multipleOf':
      return `${who} doit être un multiple de ${p.multipleOf}.`;
    default:
      return `${who} n’est pas valide.`;
  }
}

/** A text value holding a NUL character, which no field accepts (PostgreSQL text cannot store it). */
export function nulCharacterMessage(part: Part, field: string | null): string {
  return `${subject(part, field)} ne doit pas contenir de caractère nul.`;
}

// The import bundle (src/bundle/schema-faults.ts): one message per Ajv error, the field's path written before it.

/** An Ajv error, as much of it as the wording needs. */
export interface BundleShapeError {
  keyword: string;
  params: Record<string, any>;
  message?: string;
  /** The schema holding the failed keyword; its `errorMessage` explains a pattern (see BUNDLE_PATTERN_MESSAGES). */
  parentSchema?: unknown;
}

/**
 * How a fault of the bundle's JSON schema reads. `orNull`: the field also accepts null (an optional field);
 * `allowedValues`: every constant a union accepts, when Ajv reported them one by one.
 */
export function bundleShapeMessage(error: BundleShapeError, orNull: boolean, allowedValues: unknown[] | undefined): string {
  const p = error.params;
  const custom = (error.parentSchema as { errorMessage?: string } | undefined)?.errorMessage;
  switch (error.keyword) {
    case 'required':
      return 'est obligatoire';
    case 'type': {
      const types = (Array.isArray(p.type) ? p.type : [p.type]).map((t: string) => TYPE_NAMES[t] ?? t);
      if (orNull) types.push('null');
      return `doit être ${types.join(' ou ')}`;
    }
    case 'format':
      if (p.format === 'date-time') return 'doit être un horodatage ISO 8601 (par exemple 2026-11-21T09:30:00.000Z)';
      return custom ?? `doit être au format ${p.format}`;
    case 'pattern':
      return custom ?? 'n’a pas le format attendu';
    case 'minLength':
      return p.limit === 1 ? 'ne doit pas être vide' : `doit contenir au moins ${p.limit} caractères`;
    case 'minimum':
      return `doit être supérieur ou égal à ${p.limit}`;
    case 'maximum':
      return `doit être inférieur ou égal à ${p.limit}`;
    case 'const':
    case 'enum': {
      const values = allowedValues ?? p.allowedValues ?? [p.allowedValue];
      return `doit valoir ${values.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
    }
    default:
      return custom ?? `n’est pas valide (${error.message ?? error.keyword})`;
  }
}

/** The patterns of the bundle's schema, explained: each is the `errorMessage` of its field's schema. */
export const BUNDLE_PATTERN_MESSAGES = {
  uuid: 'doit être un UUID',
  hexColor: 'doit être une couleur hexadécimale (#RGB ou #RRGGBB)',
  digits: 'doit contenir uniquement des chiffres',
  siret: 'doit contenir exactement 14 chiffres',
  mimeType: 'doit être un type MIME',
  phone: 'doit être un numéro de téléphone, par exemple 02 98 33 50 50',
} as const;

/**
 * The faults of a service notice's own rules (docs/api.md, collections that move and service notices; notices are not in the import bundle), worded as
 * the bundle's are: the rest of a sentence whose subject is the field (`Le champ « placeIds[1] » …`).
 */
export const noticeMessages = {
  notACityOfTheGroup: (id: string) => `ne désigne aucune ville de ce groupe (${id})`,
  /** A place outside the notice's cities (`cityIds` given)… */
  notAPlaceOfTheCities: (id: string) => `ne désigne aucun lieu de collecte des villes de «\u00a0cityIds\u00a0» (${id})`,
  /** …or, without cities, outside the group. */
  notAPlaceOfTheGroup: (id: string) => `ne désigne aucun lieu de collecte des villes de ce groupe (${id})`,
  endsNotAfterStart: 'doit suivre le début de l’avis (startsAt)\u00a0; null\u00a0: jusqu’à suppression',
  /**
   * A timestamp the schema's format lets through but that names no instant (`23:59:60`, a leap second), or one
   * outside the years the databases and the contract's form (`2026-11-21T09:30:00.000Z`) hold alike.
   */
  notAnInstant: 'doit être un horodatage réel, entre les années 1970 et 9999 (par exemple 2026-11-21T09:30:00.000Z)',
};

/** Resident requests' rules (src/requests/request-rules.ts): each follows « Le champ « x » ». */
export const embedMessages = {
  notAnHttpsOrigin: 'doit être l’origine https d’un site, sans chemin ni paramètre (par exemple https://www.plouzane.fr)',
  repeated: (origin: string) => `est déjà dans la liste (${origin})`,
};

export const requestMessages = {
  required: (typeName: string) => `est obligatoire pour une demande «\u00a0${typeName}\u00a0»`,
  notForType: (typeName: string) => `ne s’applique pas à une demande «\u00a0${typeName}\u00a0»\u00a0: laissez-le vide`,
  goesWith: (other: string) => `est obligatoire avec «\u00a0${other}\u00a0»`,
  positionRequired: (typeName: string) =>
    `est obligatoire pour une demande «\u00a0${typeName}\u00a0»\u00a0: indiquez une position (latitude et longitude) ou une adresse`,
  photoRequired: (typeName: string) => `doit contenir au moins une photo pour une demande «\u00a0${typeName}\u00a0»`,
  textAnswer: (max: number) => `doit être un texte d’au plus ${max}\u00a0caractères`,
  numberAnswer: 'doit être un nombre',
  dateAnswer: 'doit être une date réelle au format AAAA-MM-JJ',
  oneOf: (keys: readonly string[]) => `doit valoir l’une de ces clés\u00a0: ${keys.join(', ')}`,
  someOf: (keys: readonly string[]) => `doit être une liste de clés distinctes parmi\u00a0: ${keys.join(', ')}`,
  noCollection: (wasteType: string, day: string) =>
    `ne correspond à aucune collecte «\u00a0${wasteType}\u00a0» à cette adresse\u00a0: ce bac n’était pas collecté le ${day} (vérifiez la date dans votre calendrier)`,
  collectionCancelled: (wasteType: string, day: string) =>
    `ne correspond à aucune collecte «\u00a0${wasteType}\u00a0» à cette adresse\u00a0: la collecte du ${day} était annulée`,
  missedTooEarly: (day: string) =>
    `ne peut pas encore être signalé\u00a0: une collecte non effectuée se signale à partir de 12\u00a0h le jour de la collecte (${day})`,
  missedTooLate: (deadline: string) =>
    `est trop ancien\u00a0: une collecte non effectuée se signale dans les 48\u00a0heures qui suivent midi le jour de la collecte (au plus tard le ${deadline})`,
  notAPlaceOfTheCity: (id: string) => `ne désigne aucun lieu de collecte de cette ville (${id})`,
  notAWasteTypeOfTheCity: (id: string) => `ne désigne aucun type de déchet de cette ville (${id})`,
  notAPointOfTheCity: (id: string) => `ne désigne aucun point d’apport de cette ville (${id})`,
  notAPhoto: (id: string) => `ne désigne aucune photo envoyée et libre (${id})\u00a0: envoyez-la d’abord à POST /public/requests/photos`,
  fieldCodeTwice: (code: string) => `est en double («\u00a0${code}\u00a0»)`,
  listNeedsValues: 'doit proposer au moins un choix pour une liste',
  valuesOnlyForLists: 'doit être vide\u00a0: seules les listes proposent des choix',
  codeTaken: (code: string) => `est déjà le code d’un autre type de ce groupe («\u00a0${code}\u00a0»)`,
  plannedForRequired: 'est obligatoire pour passer la demande au statut PLANIFIEE',
  reasonRequired: 'est obligatoire pour rejeter une demande (statut REJETEE)\u00a0: le demandeur la lira',
  noBulkyPickupDay: 'ne désigne aucun jour d’enlèvement des encombrants ouvert dans cette ville',
  bulkyDayClosed: 'désigne un jour qui n’est plus ouvert aux rendez-vous\u00a0: un jour se réserve jusqu’à midi la veille',
  notADay: 'doit être une date réelle au format AAAA-MM-JJ',
  rangeBackwards: 'doit être le même jour que «\u00a0from\u00a0» ou un jour après',
  rangeTooLong: (days: number) => `doit être au plus ${days}\u00a0jours après «\u00a0from\u00a0»`,
  notAnAgent: (id: string) => `ne désigne aucun agent de ce groupe habilité aux demandes (${id})`,
};
