/**
 * The one catalogue of errors the API answers with. Each carries its HTTP status;
 * the error handler turns it into the contract's {statusCode, message, error} body.
 * Messages are French sentences: citizens read them.
 */

export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
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

export class ApiError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

export const BadRequest = (message: string) => new ApiError(400, message);
export const Unauthorized = (message = 'Authentification requise : jeton absent ou invalide.') =>
  new ApiError(401, message, { 'www-authenticate': 'Bearer' });
export const Forbidden = (message: string) => new ApiError(403, message);
export const NotFound = (message: string) => new ApiError(404, message);
export const RangeNotSatisfiable = (size: number) =>
  new ApiError(416, 'La plage demandée (en-tête « Range ») est hors du fichier.', { 'content-range': `bytes */${size}` });

/** Messages used in several places, kept here so that the same fault reads the same everywhere. */
export const messages = {
  routeNotFound: (method: string, url: string) => `Aucune route ne correspond à ${method} ${url.split('?')[0]}.`,
  cityNotFound: 'Ville introuvable',
  internal: 'Une erreur interne est survenue. Réessayez plus tard.',
  invalidJson: 'Le corps de la requête n’est pas un JSON valide.',
  bodyTooLarge: 'Le corps de la requête dépasse la taille maximale de 100 Kio.',
  unsupportedMediaType: 'Le corps de la requête doit être envoyé en JSON (Content-Type: application/json).',
  emptyJsonBody: 'Le corps de la requête est vide alors qu’un objet JSON est attendu.',
  collectionPlaceNotFound: 'Lieu de collecte introuvable dans cette ville',
  badRequest: 'La requête n’est pas valide.',
  badUrl: 'L’adresse demandée n’est pas valide (encodage des caractères incorrect).',
  urlTooLong: 'L’adresse demandée est trop longue.',
};
