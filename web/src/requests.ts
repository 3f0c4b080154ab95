// Resident requests (docs/api.md, resident requests): what the report form, « Mes demandes » and their entry points
// share: the addresses of the form, the French words of a status, the device's requests and their live updates.
import { useEffect, useRef } from 'preact/hooks';
import { get, getLive, post } from './api.ts';
import { deviceId } from './store.ts';
import { addDays, frenchTime, longDay, noonInFrance, todayInFrance } from './text.ts';
import type { City, RequestStatus, RequestType, ResidentRequest } from './types.ts';

const NBSP = '\u00a0';

/** The types whose form asks what the public shape of a type does not say: a day, a recycling point. */
export const MISSED_COLLECTION = 'collecte-non-effectuee';
export const FULL_POINT = 'point-apport-plein';
/** The type of a bulky-waste pickup booking: its own form (a day with room, an address, an e-mail) and « Annuler ». */
export const BULKY_PICKUP = 'encombrants';

/** How long after noon of its day a missed collection can be reported (the server checks it too). */
const MISSED_WINDOW_MS = 48 * 3_600_000;

/** What the form's address may pre-fill: `/signaler?type=…&placeId=…`. */
export interface ReportPrefill {
  type?: string;
  cityId?: string;
  placeId?: string;
  wasteTypeId?: string;
  date?: string;
  recyclingPointId?: string;
}

export const PREFILL_KEYS = ['type', 'cityId', 'placeId', 'wasteTypeId', 'date', 'recyclingPointId'] as const;

/** The form's address: `/signaler` with what it pre-fills in the query (route parameters are UUIDs only). */
export function reportPath(prefill: ReportPrefill = {}): string {
  const params = new URLSearchParams();
  for (const key of PREFILL_KEYS) if (prefill[key]) params.set(key, prefill[key]);
  const query = params.toString();
  return query ? `/signaler?${query}` : '/signaler';
}

export const requestPath = (id: string) => `/mes-demandes/${id}`;

/** Whether a collection of `date` can be reported missed at `now`: from its noon until 48 hours later. */
export function inMissedWindow(date: string, now = new Date()): boolean {
  const noon = noonInFrance(date).getTime();
  return now.getTime() >= noon && now.getTime() <= noon + MISSED_WINDOW_MS;
}

/** The days whose collections may be in the window at `now`: today and the two before. */
export function missedWindowDays(now = new Date()): { from: string; to: string } {
  const today = todayInFrance(now);
  return { from: addDays(today, -2), to: today };
}

export const STATUS_LABEL: Record<RequestStatus, string> = {
  RECUE: 'Reçue',
  EN_COURS: 'En cours',
  PLANIFIEE: 'Planifiée',
  RESOLUE: 'Résolue',
  REJETEE: 'Rejetée',
  ANNULEE: 'Annulée',
};

/** « Planifiée pour le lundi 30 novembre », else the status's word. */
export function statusText(request: Pick<ResidentRequest, 'status' | 'plannedFor'>): string {
  if (request.status === 'PLANIFIEE' && request.plannedFor) return `Planifiée pour le ${longDay(request.plannedFor.slice(0, 10))}`;
  return STATUS_LABEL[request.status];
}

export const isOpen = (status: RequestStatus) => status === 'RECUE' || status === 'EN_COURS' || status === 'PLANIFIEE';

/** A city and the request types of its group, active ones by name (none for a city of no group). */
export async function cityWithTypes(cityId: string): Promise<{ city: City; types: RequestType[] }> {
  const city = await get<City>(`/public/cities/${cityId}`);
  const groupId = city.cityGroup?.id;
  const types = groupId ? await get<RequestType[]>(`/public/city-groups/${groupId}/request-types`) : [];
  return { city, types };
}

/** The device's requests, newest first, straight from the network (they change while the app is open). */
export const myRequests = () => getLive<ResidentRequest[]>(`/public/requests?deviceId=${encodeURIComponent(deviceId())}`);

export const myRequest = (id: string) => getLive<ResidentRequest>(`/public/requests/${id}?deviceId=${encodeURIComponent(deviceId())}`);

/**
 * Keeps a screen of the device's requests current while it is open: the server's stream of changes
 * (`GET /public/requests/events`: `ready`, then `request` with the request as `GET /public/requests/:id` answers it,
 * `reset` when a reconnection missed too much),
 * and a reload whenever the tab becomes visible again or the stream comes back after a cut (what it missed). Without
 * the stream (an older server answers 404, a proxy that buffers) the screen still loads on open and on return.
 */
export function useRequestUpdates(onRequest: (request: ResidentRequest) => void, reload: () => void): void {
  // The latest callbacks, so that the stream opened once always calls the current ones.
  const handlers = useRef({ onRequest, reload });
  handlers.current = { onRequest, reload };
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') handlers.current.reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    let source: EventSource | null = null;
    if (typeof EventSource !== 'undefined') {
      source = new EventSource(`/public/requests/events?deviceId=${encodeURIComponent(deviceId())}`);
      let readyBefore = false;
      source.addEventListener('ready', () => {
        // The first `ready` follows the screen's own load; a later one is a reconnection, after which changes may be missed.
        if (readyBefore) handlers.current.reload();
        readyBefore = true;
      });
      // A reconnection that missed too much for the server to replay: the whole list again.
      source.addEventListener('reset', () => handlers.current.reload());
      source.addEventListener('request', (event) => {
        try {
          handlers.current.onRequest(JSON.parse((event as MessageEvent<string>).data) as ResidentRequest);
        } catch {
          // A malformed event is skipped: the next load brings the truth.
        }
      });
      // A refusal (404, not a stream) closes it for good: the visibility reload carries on alone. A cut reconnects by itself.
    }
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      source?.close();
    };
  }, []);
}

/** « Ce problème a déjà été signalé » and the like: the sentence after a filing, by the answer's status. */
export function filedSentence(reference: string, joined: boolean): string {
  return joined
    ? `Ce problème a déjà été signalé${NBSP}: vous suivez désormais la demande ${reference}, et ses nouvelles s’afficheront dans «${NBSP}Mes demandes${NBSP}».`
    : `Votre demande ${reference} est enregistrée.`;
}

/** When a booking of `day` can no longer be cancelled: noon the day before, on the clock of France (the server decides). */
export const cancellationDeadline = (day: string): Date => noonInFrance(addDays(day, -1));

/** « lundi 30 novembre à 12 h »: the deadline in words (« annulable jusqu’au … »). */
export const deadlineText = (day: string): string => `${longDay(addDays(day, -1))} à ${frenchTime(cancellationDeadline(day).toISOString())}`;

/** Whether the resident may still cancel this request at `now`: a standing booking before its deadline. */
export function cancellable(request: Pick<ResidentRequest, 'typeCode' | 'status' | 'plannedFor'>, now = new Date()): boolean {
  if (request.typeCode !== BULKY_PICKUP || request.status !== 'PLANIFIEE' || !request.plannedFor) return false;
  return now.getTime() < cancellationDeadline(request.plannedFor.slice(0, 10)).getTime();
}

/** Cancels a booking of this device (`POST /public/requests/:id/cancel`): the request as it now is. */
export const cancelBooking = (id: string) => post<ResidentRequest>(`/public/requests/${id}/cancel?deviceId=${encodeURIComponent(deviceId())}`, {});

/** « Prendre rendez-vous pour des encombrants »: the booking form of a city. */
export const bookingPath = (cityId?: string) => reportPath({ type: BULKY_PICKUP, cityId });
