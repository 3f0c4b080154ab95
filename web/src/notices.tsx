// Service notices (docs/api.md, collections that move and service notices): what the city group tells its residents for a while (a strike, a closed
// road), at the top of a place's calendar and of the commune's screen before a place is chosen.
import { get } from './api.ts';
import { addDays, frenchTime, longDay, todayInFrance } from './text.ts';
import type { ServiceNotice } from './types.ts';
import { useResource } from './ui.tsx';

const NBSP = '\u00a0';

/**
 * The notices in force for a city, or for one of its places; none when they cannot be read (offline, a server
 * error): a notice never stands in the way of the calendar it sits on.
 */
export async function fetchNotices(cityId: string, placeId?: string): Promise<ServiceNotice[]> {
  try {
    return await get<ServiceNotice[]>(`/public/cities/${cityId}/notices${placeId ? `?placeId=${placeId}` : ''}`, { fresh: true });
  } catch {
    return [];
  }
}

/** The notices not ended at `now`: a copy kept on the device may hold some that ended since. */
export function stillInForce(notices: ServiceNotice[], now = new Date()): ServiceNotice[] {
  return notices.filter((n) => n.endsAt === null || Date.parse(n.endsAt) > now.getTime());
}

/**
 * When a notice ends, on the clock of France: « Jusqu’au lundi 4 janvier à 18 h », « Jusqu’à 18 h aujourd’hui »,
 * « Jusqu’au dimanche 3 janvier inclus » (an end at midnight closes the day before); without an end, since when.
 */
export function noticePeriod(notice: Pick<ServiceNotice, 'startsAt' | 'endsAt'>, now = new Date()): string {
  if (notice.endsAt === null) return `Depuis le ${longDay(todayInFrance(new Date(notice.startsAt)))}`;
  const day = todayInFrance(new Date(notice.endsAt));
  const time = frenchTime(notice.endsAt);
  if (time === `0${NBSP}h`) return `Jusqu’au ${longDay(addDays(day, -1))} inclus`;
  if (day === todayInFrance(now)) return `Jusqu’à ${time} aujourd’hui`;
  return `Jusqu’au ${longDay(day)} à ${time}`;
}

/**
 * The notices, each a card (on screen only: a notice lasts days, the printed year a year): a WARNING (what residents must act on) says « Important » in words and is drawn stronger,
 * an INFO plainer. Each is a polite live region (`role="status"`), not an alert: `role="alert"` is assertive, so on
 * every visit while the notice lasts it would cut off the screen's title, which the app focuses on arrival, for news
 * the resident did not just cause; polite, a screen reader says it after the title, and its heading (h2) lets one
 * come back to it.
 */
export function NoticeList({ notices }: { notices: ServiceNotice[] }) {
  const shown = stillInForce(notices);
  if (shown.length === 0) return null;
  return (
    <div class="service-notices screen-only">
      {shown.map((n) => (
        <div key={n.id} class={`card service-notice ${n.severity === 'WARNING' ? 'warning' : 'info'}`} role="status">
          <h2>
            {n.severity === 'WARNING' && <span class="severity">Important</span>} {n.title}
          </h2>
          <p class="notice-body">{n.body}</p>
          <p class="notice-period">{noticePeriod(n)}</p>
        </div>
      ))}
    </div>
  );
}

/** The notices of a commune, any of its places included (the resident has not said where they live). */
export function CityNotices({ cityId }: { cityId: string }) {
  const notices = useResource(`notices:${cityId}`, () => fetchNotices(cityId));
  return notices.data ? <NoticeList notices={notices.data} /> : null;
}
