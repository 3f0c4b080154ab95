// Resident requests as agents read them (docs/console.md, Demandes): statuses, requirements and categories in French,
// the age of a request and its moments in French, Paris time.
import type { AdminRequestType, Requirement, RequestStatus, RequestTypeField } from '../types.ts';

export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  RECUE: 'Reçue',
  EN_COURS: 'En cours',
  PLANIFIEE: 'Planifiée',
  RESOLUE: 'Résolue',
  REJETEE: 'Rejetée',
  ANNULEE: 'Annulée',
};
export const REQUEST_STATUSES = Object.keys(REQUEST_STATUS_LABELS) as RequestStatus[];

/** Whether a request in this status is still to handle (the server's OPEN_STATUSES). */
export const isOpenStatus = (status: RequestStatus) => status === 'RECUE' || status === 'EN_COURS' || status === 'PLANIFIEE';

export const REQUIREMENT_LABELS: Record<Requirement, string> = { NONE: 'Non demandé', OPTIONAL: 'Facultatif', REQUIRED: 'Obligatoire' };

export const CATEGORY_LABELS: Record<AdminRequestType['category'], string> = {
  COLLECTE: 'Collecte',
  BAC: 'Bacs',
  POINT_APPORT: 'Points d’apport',
  PROPRETE: 'Propreté',
  ENCOMBRANTS: 'Encombrants',
  AUTRE: 'Autre',
};

export const DATATYPE_LABELS: Record<RequestTypeField['datatype'], string> = {
  string: 'Texte court',
  text: 'Texte long',
  number: 'Nombre',
  date: 'Date',
  singlevaluelist: 'Liste (un choix)',
  multivaluelist: 'Liste (plusieurs choix)',
};

export const isList = (datatype: RequestTypeField['datatype']) => datatype === 'singlevaluelist' || datatype === 'multivaluelist';

/** How long ago an instant was, as a queue says it: « à l’instant », « il y a 12 min », « il y a 3 h », « il y a 2 jours ». */
export function ageText(timestamp: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(timestamp)) / 60_000);
  if (minutes < 1) return 'à l’instant';
  if (minutes < 60) return `il y a ${minutes}\u00a0min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `il y a ${hours}\u00a0h`;
  const days = Math.floor(hours / 24);
  return `il y a ${days}\u00a0jour${days > 1 ? 's' : ''}`;
}

const PARIS = new Intl.DateTimeFormat('fr-FR', {
  weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Paris',
});

/**
 * `lundi 30 novembre à 8 h 12` (Paris time; the year added when it is not this year's), as in « Reçue le lundi 30
 * novembre à 8 h 12 »; a whole hour is `à 19 h`.
 */
export function frenchInstant(timestamp: string, now = new Date()): string {
  const parts = PARIS.formatToParts(new Date(timestamp));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const thisYear = PARIS.formatToParts(now).find((p) => p.type === 'year')?.value;
  const day = part('day') === '1' ? '1er' : part('day');
  const year = part('year') === thisYear ? '' : ` ${part('year')}`;
  const minute = part('minute') === '00' ? '' : `\u00a0${part('minute')}`;
  return `${part('weekday')} ${day} ${part('month')}${year} à ${Number(part('hour'))}\u00a0h${minute}`;
}

/** An answer to a type's field as agents read it: a list's names, a number in French, a day in French. */
export function attributeText(field: RequestTypeField | undefined, value: unknown, frenchDate: (day: string) => string): string {
  if (value === null || value === undefined || value === '') return '—';
  const name = (key: unknown) => field?.values.find((v) => v.key === key)?.name ?? String(key);
  if (Array.isArray(value)) return value.map(name).join(', ') || '—';
  if (field && isList(field.datatype)) return name(value);
  if (typeof value === 'number') return value.toLocaleString('fr-FR');
  if (field?.datatype === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return frenchDate(value);
  return String(value);
}

/** The OpenStreetMap page of a position, its marker at the point. */
export const osmLink = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=18/${latitude}/${longitude}`;
