// The navigation's counts of resident requests (docs/console.md, Demandes): those received and not yet taken up, and
// those overdue, each the `total` of a one-item page of GET /admin/requests. Read when the console loads, again when
// the requests' stream says something changed (debounced: a burst of changes is one reading), and when a screen of
// the agent's own changed one (`refreshRequestCounts`).
import { useEffect, useState } from 'preact/hooks';
import { get, type Page } from './api.ts';
import { listenTo, REQUEST_EVENTS } from './live.ts';

export interface RequestCounts {
  received: number;
  overdue: number;
}

/** How long the counts wait after a change for the next one before reading again. */
const DEBOUNCE_MS = 1000;

const total = (query: string) => get<Page<unknown>>(`/admin/requests?${query}&pageSize=1`).then((p) => p.meta.total);

const refreshers = new Set<() => void>();

/** Reads the counts again (after the agent changed a request). */
export function refreshRequestCounts(): void {
  for (const refresh of refreshers) refresh();
}

/** The counts for an agent holding REQUESTS (null while unknown, or when `enabled` is false). */
export function useRequestCounts(enabled: boolean): RequestCounts | null {
  const [counts, setCounts] = useState<RequestCounts | null>(null);
  useEffect(() => {
    if (!enabled) return setCounts(null);
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const read = () => {
      Promise.all([total('status=RECUE'), total('overdue=true')]).then(
        ([received, overdue]) => live && setCounts({ received, overdue }),
        () => undefined,
      );
    };
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(read, DEBOUNCE_MS);
    };
    read();
    refreshers.add(read);
    const stop = listenTo(REQUEST_EVENTS, ({ event }) => {
      if (event === 'request' || event === 'reset') soon();
    });
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      refreshers.delete(read);
      stop();
    };
  }, [enabled]);
  return counts;
}
