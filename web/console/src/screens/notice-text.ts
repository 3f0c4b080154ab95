// A service notice in French (docs/api.md, service notices): its dates in its communes' time, where it stands
// (« En cours », « À venir », « Terminé »), when it was or will be sent, and whom it concerns. Part of the notices
// screen's chunk.
import { counted, frenchDate } from '../french.ts';
import type { AdminNotice, City } from '../types.ts';

/** A day and a time as the form's inputs hold them (YYYY-MM-DD, HH:MM), in a time zone. */
export interface WallTime {
  day: string;
  time: string;
}

const WALL = new Map<string, Intl.DateTimeFormat>();

/** The day and time (to the minute) an instant shows in a time zone. */
export function wallTime(iso: string, timeZone: string): WallTime {
  let format = WALL.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    WALL.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})/;

/**
 * The instant a day and time name in a time zone (ISO), or null while either is incomplete. The zone's offset is
 * read at the guess, then again at the answer, so that a day of a change of clocks lands on the right side of it.
 */
export function instantOf(wall: WallTime, timeZone: string): string | null {
  const d = DAY.exec(wall.day);
  const t = TIME.exec(wall.time);
  if (!d || !t) return null;
  const asUtc = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  if (Number.isNaN(asUtc)) return null;
  const offset = (instant: number) => {
    const w = wallTime(new Date(instant).toISOString(), timeZone);
    const [y, m, day] = w.day.split('-').map(Number);
    const [h, min] = w.time.split(':').map(Number);
    return Date.UTC(y, m - 1, day, h, min) - Math.floor(instant / 60_000) * 60_000;
  };
  let instant = asUtc - offset(asUtc);
  instant = asUtc - offset(instant);
  return new Date(instant).toISOString();
}

/** `18\u00a0h`, `9\u00a0h\u00a005`: a time of day as French writes it. */
export function frenchTime(time: string): string {
  const [h, m] = time.split(':').map(Number);
  return `${h}\u00a0h${m === 0 ? '' : `\u00a0${String(m).padStart(2, '0')}`}`;
}

/** `mardi 1er décembre à 18\u00a0h` (the year when it is not this one) for a day and time. */
export function frenchWallTime(wall: WallTime, now = new Date()): string {
  return `${frenchDate(wall.day, { year: wall.day.slice(0, 4) !== String(now.getFullYear()) })} à ${frenchTime(wall.time)}`;
}

/** An instant said in a time zone: `mardi 1er décembre à 18\u00a0h`. */
export const frenchInstant = (iso: string, timeZone: string): string => frenchWallTime(wallTime(iso, timeZone));

/** `Paris` for `Europe/Paris`: the town a time zone is named after, for « heure de Paris ». */
export const zoneTown = (timeZone: string): string => timeZone.split('/').at(-1)!.replaceAll('_', ' ');

export type NoticeState = 'current' | 'upcoming' | 'ended';

export const STATE_LABELS: Record<NoticeState, string> = { current: 'En cours', upcoming: 'À venir', ended: 'Terminé' };

/** Where a notice stands now: in force, to come, or over (the public listing shows only the first). */
export function noticeState(notice: Pick<AdminNotice, 'startsAt' | 'endsAt'>, now = Date.now()): NoticeState {
  if (Date.parse(notice.startsAt) > now) return 'upcoming';
  if (notice.endsAt !== null && Date.parse(notice.endsAt) <= now) return 'ended';
  return 'current';
}

/** « Du mardi 1er décembre à 18 h au mercredi 2 décembre à 8 h », or « À partir du …, jusqu’à suppression ». */
export function periodText(notice: Pick<AdminNotice, 'startsAt' | 'endsAt'>, timeZone: string): string {
  const from = frenchInstant(notice.startsAt, timeZone);
  return notice.endsAt === null ? `À partir du ${from}, jusqu’à suppression` : `Du ${from} au ${frenchInstant(notice.endsAt, timeZone)}`;
}

/** What became of the sending: « Envoyé le … », « Envoi à son début », or null (not to be sent, or never will be). */
export function sendingText(notice: Pick<AdminNotice, 'startsAt' | 'endsAt' | 'notify' | 'notifiedAt'>, timeZone: string, now = Date.now()): string | null {
  if (notice.notifiedAt) return `Envoyé le ${frenchInstant(notice.notifiedAt, timeZone)}`;
  if (!notice.notify) return null;
  const state = noticeState(notice, now);
  if (state === 'upcoming') return 'Envoi à son début';
  return state === 'current' ? 'Envoi dans la minute' : null;
}

/** The group's communes and their secteurs, as the notices screen names them. */
export interface GroupPlaces {
  cities: City[];
  /** Each place of the group: its name and its commune. */
  places: Map<string, { name: string; cityId: string }>;
}

/** The time zone of the group's communes (the one most of them keep). */
export function groupZone(group: GroupPlaces): string {
  const count = new Map<string, number>();
  for (const c of group.cities) count.set(c.timeZone, (count.get(c.timeZone) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'Europe/Paris';
}

/** The time a notice's dates are said in: its first commune's, else the group's. */
export function noticeZone(group: GroupPlaces, scope: Pick<AdminNotice, 'cityIds' | 'placeIds'>): string {
  const cityId = scope.cityIds[0] ?? (scope.placeIds[0] && group.places.get(scope.placeIds[0])?.cityId);
  return group.cities.find((c) => c.id === cityId)?.timeZone ?? groupZone(group);
}

/** A place's name with its commune's: `Centre-ville et Recouvrance (Brest)`. */
export function placeLabel(group: GroupPlaces, placeId: string): string {
  const place = group.places.get(placeId);
  if (!place) return 'Secteur inconnu';
  const city = group.cities.find((c) => c.id === place.cityId);
  return city ? `${place.name} (${city.name})` : place.name;
}

export const cityLabel = (group: GroupPlaces, cityId: string): string => group.cities.find((c) => c.id === cityId)?.name ?? 'Commune inconnue';

/** Whom a notice concerns: « Tout le groupe », its communes, or its secteurs with their commune. */
export function scopeText(group: GroupPlaces, scope: Pick<AdminNotice, 'cityIds' | 'placeIds'>): string {
  if (scope.placeIds.length > 0) return scope.placeIds.map((id) => placeLabel(group, id)).join(', ');
  if (scope.cityIds.length > 0) return scope.cityIds.map((id) => cityLabel(group, id)).join(', ');
  return 'Tout le groupe';
}

/** « 12 abonnés recevront cet avis : 9 par notification, 3 par e-mail », or « Aucun abonné pour l’instant ». */
export function audienceText(audience: { subscriptions: number; push: number; email: number }): string {
  if (audience.subscriptions === 0) return 'Aucun abonné pour l’instant.';
  const channels = [audience.push > 0 ? `${audience.push} par notification` : null, audience.email > 0 ? `${audience.email} par e-mail` : null].filter(Boolean);
  const who = `${counted(audience.subscriptions, 'abonné', 'abonnés')} ${audience.subscriptions > 1 ? 'recevront' : 'recevra'} cet avis`;
  return `${who}\u00a0: ${channels.join(', ')}.`;
}
