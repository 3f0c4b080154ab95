/**
 * The one catalogue of the failures the API answers with, in the manner of Fastify core's lib/errors.js: each has a
 * code (its key in `errors`), an HTTP status and a French sentence (citizens and agents read them; the faulty field
 * named by its JSON name). Services and routes throw them; the error handler (src/http/error-handler.ts) alone turns
 * them into the contract's {statusCode, message, error} body. No French error message is written anywhere else;
 * the wording of schema validation failures lives beside it (validation-messages.ts).
 *
 * French typography: a no-break space (\u00a0) before « : » and inside « », a narrow one (\u202f) before ? ! ;
 * (older messages, checked verbatim by clients' tests, keep their plain spaces).
 */

import { frenchDate } from './french.ts';

export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  428: 'Precondition Required',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

/** A failure of the catalogue: its code, status, French message and the headers its answer carries. */
export class DomainError extends Error {
  readonly code: string;
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  /** The faulty field's JSON name or path (`attributes.volume`), or null when the failure is no one field's. */
  readonly field: string | null;
  constructor(code: string, statusCode: number, message: string, headers: Record<string, string> = {}, field: string | null = null) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.statusCode = statusCode;
    this.headers = headers;
    this.field = field;
  }
}

/** Sentences that are not failures of one request, or that several failures share. */
export const messages = {
  routeNotFound: (method: string, url: string) => `Aucune route ne correspond à ${method} ${url.split('?')[0]}.`,
  internal: 'Une erreur interne est survenue. Réessayez plus tard.',
  unavailable: 'Le service est momentanément indisponible : réessayez dans quelques instants.',
  invalidJson: 'Le corps de la requête n’est pas un JSON valide.',
  bodyTooLarge: 'Le corps de la requête dépasse la taille maximale de 100 Kio.',
  unsupportedMediaType: 'Le corps de la requête doit être envoyé en JSON (Content-Type: application/json).',
  emptyJsonBody: 'Le corps de la requête est vide alors qu’un objet JSON est attendu.',
  contentLengthMismatch: 'L’en-tête « Content-Length » ne correspond pas au corps envoyé.',
  badRequest: 'La requête n’est pas valide.',
  badUrl: 'L’adresse demandée n’est pas valide (encodage des caractères incorrect).',
  urlTooLong: 'L’adresse demandée est trop longue.',
  tooManyRequests: 'Trop de requêtes : réessayez dans quelques instants.',
  preconditionFailed:
    'Cet élément a été modifié depuis que vous l’avez lu (en-tête «\u00a0If-Match\u00a0»)\u00a0: relisez-le avant de le modifier.',
  rangeNotSatisfiable: 'La plage demandée (en-tête « Range ») est hors du fichier.',
  /** The chat's reply (not an error) when the conversation's city is gone. */
  chatCityGone: 'Les informations de cette ville ne sont plus disponibles. Un agent peut vous répondre : écrivez « parler à un agent ».',
};

const textLength = (field: string, max: number) =>
  `Le champ « ${field} » doit contenir de 1 à ${max} caractères (espaces de début et de fin exclus).`;

/** A byte count as agents read it: `10\u00a0Mio`, `512\u00a0Kio`, `1000\u00a0octets`. */
function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)}\u00a0Mio`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024}\u00a0Kio`;
  return `${bytes}\u00a0octet${bytes > 1 ? 's' : ''}`;
}

/** `field`: the JSON name of the field the message names, which clients highlight (`null` when none). */
const make =
  (code: string, status: number, headers: Record<string, string> = {}, field: string | null = null) =>
  (message: string) =>
    new DomainError(code, status, message, headers, field);

/** A failure naming one field: `fieldError('reminderWasteTypes', 400, 'wasteTypeIds')(message)`. */
const fieldError = (code: string, status: number, field: string) => make(code, status, {}, field);

/** Every failure by code. `throw errors.cityNotFound()`. */
export const errors = {
  // Everywhere
  badRequest: (message = messages.badRequest, field: string | null = null) => make('badRequest', 400, {}, field)(message),
  /** A text holding a NUL character, which PostgreSQL cannot store: a validation fault of that field. */
  nulCharacter: (message: string, field: string | null) => make('validation', 400, {}, field)(message),
  internal: () => make('internal', 500)(messages.internal),
  unavailable: (retryAfterS = 5, message = messages.unavailable) =>
    make('unavailable', 503, { 'retry-after': String(retryAfterS) })(message),
  /** Every 429 (a rate limit, the login throttle) has the contract's code `rateLimited`. */
  tooManyRequests: (retryAfterS: number) => make('rateLimited', 429, { 'retry-after': String(retryAfterS) })(messages.tooManyRequests),
  /** A missing, malformed or expired token; `code` names the other 401s (a failed login, an inactive account…). */
  unauthorized: (message = 'Authentification requise : jeton absent ou invalide.', code = 'unauthorized') =>
    make(code, 401, { 'www-authenticate': 'Bearer' })(message),
  badHost: () => make('badHost', 400)('L’en-tête « Host » n’est pas un nom d’hôte valide.'),
  databaseNotReady: () => make('databaseNotReady', 503, { 'retry-after': '1' })('La base de données ne répond pas.'),
  dateParameter: (name: string) => fieldError('dateParameter', 400, name)(`Le paramètre « ${name} » doit être une date réelle au format AAAA-MM-JJ.`),
  dateOrder: () => fieldError('dateOrder', 400, 'to')('Le paramètre « to » doit être une date égale ou postérieure à « from ».'),

  // Cities and calendars
  cityNotFound: () => make('cityNotFound', 404)('Ville introuvable'),
  /** `field`: the query parameter that named the place (`placeId`); null for the URL's own place. */
  collectionPlaceNotFound: (field: string | null = null) =>
    make('collectionPlaceNotFound', 404, {}, field)('Lieu de collecte introuvable dans cette ville'),
  /** `field`: the body or query field that named the group (a move, an export's `cityGroupId`); null for the URL's own group. */
  cityGroupNotFound: (field: string | null = null) => make('cityGroupNotFound', 404, {}, field)('Groupe de villes introuvable'),
  /** Two query parameters that go together (lat and lon), one given without the other. */
  missingWith: (missing: string, given: string) =>
    fieldError('missingWith', 400, missing)(`Le paramètre «\u00a0${missing}\u00a0» est obligatoire avec «\u00a0${given}\u00a0».`),
  /** GET /public/places/lookup with neither an address nor a position. */
  lookupNoForm: () =>
    make('lookupNoForm', 400)(
      'Indiquez une adresse (paramètres «\u00a0address\u00a0» et «\u00a0cityId\u00a0») ou une position (paramètres «\u00a0lat\u00a0» et «\u00a0lon\u00a0»).',
    ),
  /** GET /public/places/lookup with an address and a position at once. */
  lookupTwoForms: () =>
    fieldError('lookupTwoForms', 400, 'address')(
      'Le paramètre «\u00a0address\u00a0» ne va pas avec «\u00a0lat\u00a0» et «\u00a0lon\u00a0»\u00a0: cherchez par adresse ou par position, pas les deux.',
    ),
  calendarSpan: (maxDays: number) =>
    fieldError('calendarSpan', 400, 'to')(`Le paramètre « to » doit être au plus ${maxDays - 1} jours après « from » (${maxDays} jours au plus).`),

  // Reminders (docs/api.md, reminders)
  reminderWebPushMissing: () =>
    fieldError('reminderWebPushMissing', 400, 'webPush')('Le champ «\u00a0webPush\u00a0» est obligatoire quand «\u00a0channel\u00a0» vaut WEB_PUSH.'),
  reminderEmailMissing: () => fieldError('reminderEmailMissing', 400, 'email')('Le champ «\u00a0email\u00a0» est obligatoire quand «\u00a0channel\u00a0» vaut EMAIL.'),
  reminderEmailDisabled: () =>
    fieldError('reminderEmailDisabled', 400, 'channel')(
      'Le champ «\u00a0channel\u00a0» ne peut pas valoir EMAIL\u00a0: ce service ne propose pas de rappels par e-mail.',
    ),
  reminderWasteTypes: () =>
    fieldError('reminderWasteTypes', 400, 'wasteTypeIds')('Le champ «\u00a0wasteTypeIds\u00a0» ne doit contenir que des types de déchets de la ville choisie.'),
  reminderPushKey: (field: string, bytes: number) =>
    fieldError('reminderPushKey', 400, field)(`Le champ «\u00a0${field}\u00a0» doit être une valeur base64url de ${bytes}\u00a0octets.`),
  reminderEndpointScheme: () =>
    fieldError('reminderEndpointScheme', 400, 'webPush.endpoint')('Le champ «\u00a0webPush.endpoint\u00a0» doit être une adresse https.'),
  reminderEndpointPrivate: () =>
    fieldError('reminderEndpointPrivate', 400, 'webPush.endpoint')(
      'Le champ «\u00a0webPush.endpoint\u00a0» désigne une adresse locale ou privée\u00a0: il doit désigner un service de notification public.',
    ),
  reminderEndpointUnresolved: () =>
    fieldError('reminderEndpointUnresolved', 400, 'webPush.endpoint')('Le champ «\u00a0webPush.endpoint\u00a0» désigne un nom d’hôte introuvable.'),
  reminderSubscriptionNotFound: () => make('reminderSubscriptionNotFound', 404)('Abonnement aux rappels introuvable pour cet appareil.'),
  reminderLinkNotFound: () => make('reminderLinkNotFound', 404)('Ce lien n’est pas valide ou a expiré.'),
  reminderMailFailed: () =>
    make('reminderMailFailed', 503, { 'retry-after': '60' })(
      'L’e-mail de confirmation n’a pas pu être envoyé\u00a0: réessayez dans quelques instants.',
    ),

  // Challenges
  challengeNotFound: () => fieldError('challengeNotFound', 404, 'challengeId')('Défi introuvable : aucun défi disponible ne correspond à « challengeId ».'),
  challengeNotStarted: (name: string, start: string) =>
    make('challengeNotStarted', 400)(`Le défi « ${name} » n’a pas encore commencé : il ouvre le ${start}.`),
  challengeEnded: (name: string, end: string) => make('challengeEnded', 400)(`Le défi « ${name} » est terminé depuis le ${end}.`),
  challengePrerequisite: (name: string) => make('challengePrerequisite', 400)(`Terminez d’abord le défi « ${name} » avant celui-ci.`),

  // Blog, CMS, media
  cannedReplyNotFound: () => make('cannedReplyNotFound', 404)('Réponse type introuvable'),
  faqEntryNotFound: () => make('faqEntryNotFound', 404)('Question fréquente introuvable'),
  blogPostNotFound: () => make('blogPostNotFound', 404)('Article introuvable'),
  siteNotFound: () => make('siteNotFound', 404)('Site introuvable'),
  appNotFound: () => make('appNotFound', 404)('Application introuvable'),
  pageNotFound: () => make('pageNotFound', 404)('Page introuvable'),
  menuNotFound: () => make('menuNotFound', 404)('Menu introuvable'),
  /** The same answer for unknown, private and lost media: nothing tells them apart. */
  mediaNotFound: () => make('mediaNotFound', 404)('Média introuvable'),
  noThumbnail: () => make('noThumbnail', 404)('Ce média n’est pas une image : il n’a pas de miniature.'),
  /** An upload past MEDIA_MAX_BYTES; the connection is closed rather than the rest of the file read. */
  mediaTooLarge: (maxBytes: number) =>
    make('mediaTooLarge', 413, { connection: 'close' }, 'file')(
      `Le champ «\u00a0file\u00a0» dépasse la taille maximale de ${byteSize(maxBytes)} (MEDIA_MAX_BYTES).`,
    ),
  mediaFileMissing: () =>
    fieldError('mediaFileMissing', 400, 'file')(
      'Le champ «\u00a0file\u00a0» est obligatoire\u00a0: envoyez le fichier dans une partie «\u00a0file\u00a0» (avec un nom de fichier) du formulaire multipart.',
    ),
  mediaOneFile: () =>
    fieldError('mediaOneFile', 400, 'file')('Le champ «\u00a0file\u00a0» ne contient qu’un seul fichier\u00a0: envoyez un fichier par requête.'),
  mediaFileField: (name: string) =>
    fieldError('mediaFileField', 400, 'file')(`Le fichier doit être envoyé dans le champ «\u00a0file\u00a0», pas dans «\u00a0${name}\u00a0».`),
  mediaEmpty: () => fieldError('mediaEmpty', 400, 'file')('Le champ «\u00a0file\u00a0» est un fichier vide.'),
  /** The bytes are of no accepted type, whatever the file's name or declared type. */
  mediaType: () =>
    fieldError('mediaType', 415, 'file')(
      'Le champ «\u00a0file\u00a0» doit être une image PNG, JPEG, GIF, WebP, AVIF ou SVG, ou un document PDF\u00a0: ' +
        'le type est lu dans le contenu du fichier, et celui-ci n’en est aucun.',
    ),
  mediaUnreadable: () =>
    fieldError('mediaUnreadable', 400, 'file')('Le champ «\u00a0file\u00a0» n’est pas une image lisible\u00a0: le fichier est incomplet ou abîmé.'),
  notMultipart: () =>
    make('notMultipart', 400)(
      'Le corps de la requête doit être envoyé en multipart/form-data (champs «\u00a0file\u00a0», «\u00a0alt\u00a0», «\u00a0public\u00a0», «\u00a0cityGroupId\u00a0»).',
    ),
  multipartMalformed: () => make('multipartMalformed', 400)('Le corps multipart de la requête est incomplet ou mal formé.'),
  multipartTooManyParts: () =>
    make('multipartTooManyParts', 400)(
      'Le formulaire contient trop de champs\u00a0: seuls «\u00a0file\u00a0», «\u00a0alt\u00a0», «\u00a0public\u00a0» et «\u00a0cityGroupId\u00a0» sont attendus.',
    ),
  mediaCityGroupRequired: () =>
    fieldError('mediaCityGroupRequired', 400, 'cityGroupId')(
      'Le champ «\u00a0cityGroupId\u00a0» est obligatoire\u00a0: votre compte ne travaille pas pour un seul groupement, dites auquel ce média appartient.',
    ),
  rangeNotSatisfiable: (size: number) =>
    make('rangeNotSatisfiable', 416, { 'content-range': `bytes */${size}` })(messages.rangeNotSatisfiable),

  // Chat
  chatNeedsId: () => fieldError('chatNeedsId', 400, 'cityId')('Le paramètre « cityId » ou « cityGroupId » est obligatoire.'),
  conversationNotFound: () => make('conversationNotFound', 404)('Conversation introuvable'),
  chatGroupMismatch: () => fieldError('chatGroupMismatch', 400, 'cityGroupId')('Le champ « cityGroupId » ne correspond pas au groupement de la ville.'),
  chatModuleDisabled: () => make('chatModuleDisabled', 403)('L’assistant n’est pas activé pour cette ville.'),
  chatNoCityGroup: () =>
    make('chatNoCityGroup', 403)('Cette ville ne fait partie d’aucun groupement : l’assistant n’y est pas disponible.'),
  chatLocationCity: () =>
    fieldError('chatLocationCity', 400, 'cityId')('Le champ « cityId » doit désigner une ville active du groupement de la conversation.'),
  chatLocationPlace: () => fieldError('chatLocationPlace', 400, 'placeId')('Le champ « placeId » doit désigner un lieu de collecte de cette ville.'),
  chatMessagePlace: () =>
    fieldError('chatMessagePlace', 400, 'placeId')('Le champ « placeId » doit désigner un lieu de collecte de la ville de la conversation.'),
  contentLength: (max: number) => fieldError('contentLength', 400, 'content')(textLength('content', max)),
  conversationClosed: () => make('conversationClosed', 400)('Cette conversation est close : ouvrez-en une nouvelle.'),
  conversationFull: (max: number) =>
    make('conversationFull', 400)(`Cette conversation a atteint ${max}\u00a0messages\u00a0: ouvrez-en une nouvelle pour continuer à écrire.`),
  messageCursor: () => fieldError('messageCursor', 400, 'before')('Le paramètre «\u00a0before\u00a0» doit désigner un message de cette conversation.'),
  assistantBusy: (retryAfterS: number) =>
    errors.unavailable(retryAfterS, 'L’assistant reçoit trop de messages en ce moment\u00a0: renvoyez le vôtre dans quelques secondes.'),
  assistantFailed: (retryAfterS: number) =>
    errors.unavailable(retryAfterS, 'L’assistant n’a pas pu répondre à ce message\u00a0: renvoyez-le dans quelques instants.'),

  // Agents' console
  consoleNotConfigured: () =>
    errors.unauthorized('La console des agents n’est pas configurée sur ce serveur (CONSOLE_JWT_SECRET absent).', 'authNotConfigured'),
  consoleMissingToken: () =>
    errors.unauthorized('Authentification requise : envoyez un jeton de console dans l’en-tête « Authorization: Bearer ».'),
  consoleInvalidToken: () => errors.unauthorized('Le jeton de console est invalide ou expiré.'),
  missingPermission: (permission: string) => make('missingPermission', 403)(`Ce jeton de console n’a pas la permission ${permission}.`),
  replyClosed: () => fieldError('replyClosed', 400, 'status')('Cette conversation est close : rouvrez-la (statut « OPEN ») avant d’y répondre.'),
  statusTransition: (from: string, to: string) =>
    fieldError('statusTransition', 400, 'status')(`Le champ « status » ne peut pas passer de « ${from} » à « ${to} » : ce changement de statut n’est pas permis.`),
  ticketSubject: (max: number) => fieldError('ticketSubject', 400, 'subject')(textLength('subject', max)),
  ticketDescription: (max: number) => fieldError('ticketDescription', 400, 'description')(textLength('description', max)),
  usageSpan: (maxDays: number) => fieldError('usageSpan', 400, 'to')(`La période de « from » à « to » ne peut pas dépasser ${maxDays} jours.`),

  // Agents' accounts and login (src/auth)
  authNotConfigured: () =>
    errors.unauthorized('La connexion des agents n’est pas configurée sur ce serveur (CONSOLE_JWT_SECRET absent).', 'authNotConfigured'),
  /** The same answer for an unknown e-mail and a wrong password: nothing tells which. */
  loginFailed: () => errors.unauthorized('Adresse e-mail ou mot de passe incorrect.', 'loginFailed'),
  accountInactive: () => errors.unauthorized('Ce compte est désactivé\u00a0: adressez-vous à un administrateur.', 'accountInactive'),
  loginThrottled: (retryAfterS: number) => {
    const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
    return make('rateLimited', 429, { 'retry-after': String(retryAfterS) })(
      `Trop de tentatives de connexion échouées\u00a0: réessayez dans ${minutes}\u00a0minute${minutes > 1 ? 's' : ''}.`,
    );
  },
  sessionInvalid: () => errors.unauthorized('Votre session a expiré ou a été fermée\u00a0: reconnectez-vous.', 'sessionInvalid'),
  adminMissingToken: () =>
    errors.unauthorized(
      'Authentification requise\u00a0: connectez-vous (POST /auth/login) et envoyez le jeton d’accès dans l’en-tête «\u00a0Authorization: Bearer\u00a0».',
    ),
  adminInvalidToken: () =>
    errors.unauthorized('Le jeton d’accès est invalide ou expiré\u00a0: renouvelez-le (POST /auth/refresh) ou reconnectez-vous.'),
  adminPermission: (permissions: readonly string[]) =>
    make('adminPermission', 403)(
      permissions.length === 1
        ? `Votre compte n’a pas la permission ${permissions[0]}.`
        : `Votre compte n’a aucune des permissions ${permissions.slice(0, -1).join(', ')} ou ${permissions.at(-1)}.`,
    ),
  /** An If-Match that no longer matches: someone changed the record since it was read. */
  preconditionFailed: () =>
    make('preconditionFailed', 412)(messages.preconditionFailed),
  /** A PATCH or DELETE under /admin without If-Match: a blind write could undo someone else's change unseen. */
  preconditionRequired: () =>
    make('preconditionRequired', 428)(
      'L’en-tête «\u00a0If-Match\u00a0» est obligatoire pour modifier ou supprimer\u00a0: envoyez l’ETag de la version que vous avez lue.',
    ),
  userNotFound: () => make('userNotFound', 404)('Compte introuvable'),
  wasteTypeNotFound: () => make('wasteTypeNotFound', 404)('Type de déchet introuvable'),
  collectionExceptionNotFound: () => make('collectionExceptionNotFound', 404)('Exception de collecte introuvable'),
  recyclingPointNotFound: () => make('recyclingPointNotFound', 404)('Point de collecte introuvable'),
  quizQuestionNotFound: () => make('quizQuestionNotFound', 404)('Question de quiz introuvable'),
  /** The admin API's: unlike the public `challengeNotFound`, it names no field. */
  adminChallengeNotFound: () => make('adminChallengeNotFound', 404)('Défi introuvable'),
  badgeNotFound: () => make('badgeNotFound', 404)('Badge introuvable'),
  serieNotFound: () => make('serieNotFound', 404)('Série introuvable'),
  /** A service notice (docs/api.md, collections that move and service notices) unknown or of a group outside the agent's. */
  noticeNotFound: () => make('noticeNotFound', 404)('Avis introuvable'),
  // Resident requests (docs/api.md, resident requests)
  /** An unknown type code, or one the city's group does not offer (inactive, or the city has no group). */
  requestTypeNotFound: (field: string | null = 'typeCode') => make('requestTypeNotFound', 404, {}, field)('Type de demande introuvable'),
  /** An unknown request, or one the device neither filed nor follows: the same answer. */
  requestNotFound: () => make('requestNotFound', 404)('Demande introuvable'),
  requestTypeInUse: (uses: number) =>
    make('requestTypeInUse', 409)(
      `Ce type de demande est utilisé par ${uses}\u00a0demande${uses > 1 ? 's' : ''}\u00a0: désactivez-le («\u00a0active\u00a0»: false) plutôt que de le supprimer.`,
    ),
  // Bulky-waste pickups (docs/api.md, bulky-waste pickups). The full day's message is the contract's, word for word.
  bulkyDayFull: () => fieldError('bulkyDayFull', 409, 'attributes.slotDate')('Plus de place ce jour-là : choisissez un autre jour.'),
  notABooking: () => make('notABooking', 409)('Cette demande n’est pas un rendez-vous d’enlèvement des encombrants\u00a0: elle ne s’annule pas.'),
  bookingNotStanding: () => make('bookingNotStanding', 409)('Ce rendez-vous n’est plus prévu\u00a0: il ne peut pas être annulé.'),
  cancellationClosed: () =>
    make('cancellationClosed', 409)('Un rendez-vous s’annule jusqu’à midi la veille\u00a0: pour celui-ci, contactez le service de collecte.'),
  pickupDayOverbooked: (day: string, booked: number) =>
    make('pickupDayOverbooked', 409)(
      `Le ${frenchDate(day)} compte déjà ${booked}\u00a0rendez-vous\u00a0: sa capacité ne peut pas descendre en dessous (annulez d’abord des rendez-vous).`,
    ),
  photoTooLarge: (maxBytes: number) =>
    make('photoTooLarge', 413, { connection: 'close' }, 'file')(`Le champ «\u00a0file\u00a0» dépasse la taille maximale d’une photo (${byteSize(maxBytes)}).`),
  photoType: () =>
    fieldError('photoType', 400, 'file')('Le champ «\u00a0file\u00a0» doit être une photo JPEG, PNG ou WebP\u00a0: le type est lu dans le contenu du fichier.'),
  photoPixels: (maxMegapixels: number) =>
    fieldError('photoPixels', 400, 'file')(`Le champ «\u00a0file\u00a0» dépasse ${maxMegapixels}\u00a0mégapixels\u00a0: envoyez une photo plus petite.`),
  /** A written record broke one of the import bundle's rules: the field and the rule's sentence (bundle-messages.ts). */
  invalidField: (field: string, rule: string) => fieldError('validation', 400, field)(`Le champ «\u00a0${field}\u00a0» ${rule}.`),
  wasteTypeInUse: (uses: number) =>
    make('wasteTypeInUse', 409)(
      `Ce type de déchet est encore utilisé ${uses}\u00a0fois (jours et exceptions de collecte, questions du quiz, matières des points de collecte)\u00a0: ` +
        'retirez-le d’abord de ces éléments.',
    ),
  menuItemNotFound: () => make('menuItemNotFound', 404)('Élément de menu introuvable'),
  siteNotEmpty: (pages: number, menus: number) =>
    make('siteNotEmpty', 409)(
      `Ce site a encore ${pages}\u00a0page${pages > 1 ? 's' : ''} et ${menus}\u00a0menu${menus > 1 ? 's' : ''}\u00a0: ` +
        'supprimez-les d’abord (un site n’est jamais supprimé avec son contenu).',
    ),
  pageInMenus: (links: number) =>
    make('pageInMenus', 409)(
      `Cette page est encore le lien de ${links}\u00a0élément${links > 1 ? 's' : ''} de menu\u00a0: faites-les pointer ailleurs ou supprimez-les d’abord.`,
    ),
  // The cities area's admin resources (city groups, cities, details, places, days, attached locations).
  wasteTypeDetailNotFound: () => make('wasteTypeDetailNotFound', 404)('Matière introuvable'),
  collectionDayNotFound: () => make('collectionDayNotFound', 404)('Jour de collecte introuvable'),
  attachedLocationNotFound: () => make('attachedLocationNotFound', 404)('Lieu rattaché introuvable'),
  streetRuleNotFound: () => make('streetRuleNotFound', 404)('Règle de rue introuvable'),
  superAdminOnly: () =>
    make('superAdminOnly', 403)('Seul un super administrateur peut créer, modifier ou supprimer un groupe de villes.'),
  /** `holdings`: what the group still holds, in French (`2\u00a0villes et 1\u00a0article`). */
  cityGroupNotEmpty: (holdings: string) =>
    make('cityGroupNotEmpty', 409)(
      `Ce groupe de villes contient encore ${holdings}\u00a0: supprimez-les ou rattachez-les à un autre groupe d’abord.`,
    ),
  /** `holdings`: what the city still holds, in French (`3\u00a0types de déchets et 2\u00a0lieux de collecte`). */
  cityNotEmpty: (holdings: string) =>
    make('cityNotEmpty', 409)(`Cette ville contient encore ${holdings}\u00a0: supprimez-les d’abord (ou passez la ville en NON_ACTIF).`),
  quizQuestionInUse: (series: number) =>
    make('quizQuestionInUse', 409)(
      `Cette question figure encore dans ${series}\u00a0série${series > 1 ? 's' : ''} de défis\u00a0: retirez-la d’abord de leur champ «\u00a0quizQuestionIds\u00a0».`,
    ),
  challengeRequired: (names: readonly string[]) =>
    make('challengeRequired', 409)(
      `Ce défi est requis par ${names.map((n) => `«\u00a0${n}\u00a0»`).join(', ')}\u00a0: changez d’abord leur champ «\u00a0requiredChallengeId\u00a0».`,
    ),
  challengeCompleted: (completions: number) =>
    make('challengeCompleted', 409)(
      `Ce défi a déjà été relevé ${completions}\u00a0fois\u00a0: désactivez-le («\u00a0enabled\u00a0»\u00a0: false) plutôt que de le supprimer, ` +
        'pour garder la progression et les badges des participants.',
    ),
  badgeTaken: () =>
    make('badgeTaken', 409)('Ce défi a déjà un badge (un seul par défi)\u00a0: modifiez-le ou supprimez-le d’abord.'),
  emailTaken: () => fieldError('emailTaken', 409, 'email')('Le champ «\u00a0email\u00a0» désigne déjà un compte\u00a0: une adresse e-mail n’a qu’un compte.'),
  passwordTooShort: (min: number) =>
    fieldError('passwordTooShort', 400, 'password')(`Le champ «\u00a0password\u00a0» doit contenir au moins ${min}\u00a0caractères.`),
  cityGroupsRequired: () =>
    fieldError('cityGroupsRequired', 400, 'cityGroupIds')(
      'Le champ «\u00a0cityGroupIds\u00a0» doit contenir au moins un groupement (seul un super administrateur peut n’en avoir aucun).',
    ),
  unknownCityGroup: () => fieldError('unknownCityGroup', 400, 'cityGroupIds')('Le champ «\u00a0cityGroupIds\u00a0» désigne un groupement introuvable.'),
  grantCityGroup: () =>
    fieldError('grantCityGroup', 403, 'cityGroupIds')(
      'Le champ «\u00a0cityGroupIds\u00a0» ne peut désigner que vos propres groupements\u00a0: vous ne pouvez pas donner accès aux autres.',
    ),
  grantPermission: (permission: string) =>
    fieldError('grantPermission', 403, 'permissions')(
      `Le champ «\u00a0permissions\u00a0» ne peut pas contenir ${permission}\u00a0: vous ne pouvez donner que les permissions de votre propre compte.`,
    ),
  grantSuperAdmin: () =>
    fieldError('grantSuperAdmin', 403, 'superAdmin')('Le champ «\u00a0superAdmin\u00a0» ne peut être modifié que par un super administrateur.'),
  accountAboveYours: () =>
    make('accountAboveYours', 403)(
      'Ce compte a des permissions que le vôtre n’a pas\u00a0: seul un agent qui les a toutes, ou un super administrateur, peut le modifier.',
    ),
  ownAccountLockout: () =>
    make('ownAccountLockout', 400)('Vous ne pouvez ni désactiver ni supprimer votre propre compte.'),

  // Open311 (docs/api.md, Open311): written in the standard's `[{code, description}]` by src/open311, not as the JSON body.
  open311KeyRefused: () =>
    fieldError('open311KeyRefused', 403, 'api_key')(
      'Le champ «\u00a0api_key\u00a0» ne désigne aucune clé valide pour ce groupement (clé absente, inconnue, révoquée ou d’un autre groupement).',
    ),
  jurisdictionRequired: () =>
    fieldError('jurisdictionRequired', 400, 'jurisdiction_id')(
      'Le champ «\u00a0jurisdiction_id\u00a0» est obligatoire\u00a0: ce service dessert plusieurs groupements (donnez le SIREN du vôtre).',
    ),
  jurisdictionNotFound: () =>
    fieldError('jurisdictionNotFound', 404, 'jurisdiction_id')('Le champ «\u00a0jurisdiction_id\u00a0» ne désigne aucun groupement (SIREN inconnu).'),
  locationNotFound: (field: string) =>
    fieldError('locationNotFound', 400, field)(
      `Le champ «\u00a0${field}\u00a0» ne désigne aucun lieu de collecte d’une commune de ce groupement.`,
    ),
  open311KeysSuperAdminOnly: () =>
    make('open311KeysSuperAdminOnly', 403)('Seul un super administrateur peut lister, créer ou révoquer les clés Open311.'),
  open311KeyNotFound: () => make('open311KeyNotFound', 404)('Clé Open311 introuvable'),
} as const;

export type ErrorCode = keyof typeof errors;
