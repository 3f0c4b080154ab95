// The next 60 days of a place's collections, as saved and as they will be with the form being filled (POST
// /admin/places/:id/preview?include=cancelled, nothing stored): each collection with what happens to it (moved from
// another day, added, cancelled and struck through), and what this change does framed or struck.
import { useEffect, useState } from 'preact/hooks';
import { get, messageOf, request } from '../api.ts';
import { Swatch } from '../table.tsx';
import type { AdminException, City, Collection, CollectionDay, Place, WasteType } from '../types.ts';
import { dayIn, frenchDate } from './place-text.ts';
import './calendar.css';

const PREVIEW_DAYS = 60;

/** What the place's screens read once: the place, its commune, the commune's waste types and the place's exceptions. */
export interface PlaceContext {
  city: City;
  place: Place;
  types: WasteType[];
  /** The admin API's exceptions, with their kind (the place's own list keeps the public shape). */
  exceptions: AdminException[];
}

export type DayBody = Omit<CollectionDay, 'id'> & { id?: string };
export type ExceptionBody = Pick<AdminException, 'kind' | 'dateFrom' | 'dateTo' | 'movedTo' | 'wasteTypeId' | 'name' | 'description'> & { id?: string };

/** An exception as the preview takes it (without its place). */
export const exceptionBody = ({ placeId: _placeId, ...x }: AdminException): ExceptionBody => x;

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const dayAndMonth = (day: string) => frenchDate(day, { year: false });

/** « reportée du vendredi 25 décembre », « avancée du … », « ajoutée », « annulée »: what happened to a collection. */
function fateOf(c: Collection): string | null {
  if (c.status === 'MOVED' && c.originalDate) return `${c.originalDate < c.date ? 'reportée' : 'avancée'} du ${dayAndMonth(c.originalDate)}`;
  if (c.status === 'ADDED') return 'ajoutée';
  if (c.status === 'CANCELLED') return 'annulée';
  return null;
}

/** One line of the list: a collection as it will be, or one as saved that this change takes away. */
interface Line {
  collection: Collection;
  /** added: this change brings it; removed: this change takes it away (or cancels it); same: as saved. */
  change: 'added' | 'removed' | 'same';
  /** For a collection taken away: where it goes (« déplacée au … »). */
  gone?: string;
}

const key = (c: Collection) => `${c.date}|${c.wasteTypeId}`;
const active = (c: Collection) => c.status !== 'CANCELLED';

/** The collections as they will be, each marked against those as saved; a saved one that leaves its day kept, struck. */
function linesOf(now: Collection[], next: Collection[]): Line[] {
  const nowActive = new Set(now.filter(active).map(key));
  const nextKeys = new Set(next.map(key));
  const lines: Line[] = next.map((c) => ({
    collection: c,
    change: active(c) ? (nowActive.has(key(c)) ? 'same' : 'added') : nowActive.has(key(c)) ? 'removed' : 'same',
  }));
  for (const c of now) {
    if (!active(c) || nextKeys.has(key(c))) continue;
    const movedTo = next.find((n) => n.status === 'MOVED' && n.originalDate === c.date && n.wasteTypeId === c.wasteTypeId);
    lines.push({ collection: c, change: 'removed', gone: movedTo ? `déplacée au ${dayAndMonth(movedTo.date)}` : 'retirée' });
  }
  return lines.sort(
    (a, b) =>
      a.collection.date.localeCompare(b.collection.date) ||
      a.collection.wasteTypeName.localeCompare(b.collection.wasteTypeName, 'fr') ||
      Number(a.change === 'removed') - Number(b.change === 'removed'),
  );
}

/** The next 60 days of collections as saved, and as they would be with `days` and `exceptions`; changes marked. */
export function Preview({ ctx, days, exceptions }: { ctx: PlaceContext; days?: DayBody[]; exceptions?: ExceptionBody[] }) {
  const from = dayIn(new Date().toISOString(), ctx.city.timeZone);
  const to = addDays(from, PREVIEW_DAYS - 1);
  const url = `/admin/places/${ctx.place.id}/preview?from=${from}&to=${to}&include=cancelled`;
  const proposal = days || exceptions ? JSON.stringify({ collectionDays: days, exceptions }) : null;
  const [state, setState] = useState<{ now: Collection[]; next: Collection[] } | { error: unknown } | null>(null);
  useEffect(() => {
    let live = true;
    // A short pause while the agent types: one preview per pause, not one per key.
    const timer = setTimeout(() => {
      const next = proposal === null ? null : request<Collection[]>('POST', url, { body: JSON.parse(proposal) }).then((a) => a.data);
      Promise.all([get<Collection[]>(url), next]).then(
        ([now, next]) => live && setState({ now, next: next ?? now }),
        (error) => live && setState({ error }),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url, proposal]);

  let body;
  if (state === null) body = <p class="muted">Calcul de l’aperçu…</p>;
  else if ('error' in state) body = <p class="problem">{messageOf(state.error)}</p>;
  else {
    const lines = linesOf(state.now, state.next);
    const changes = lines.filter((l) => l.change !== 'same').length;
    body = (
      <>
        <p class="legend" role="status">
          {proposal === null
            ? 'Collectes déplacées ou ajoutées signalées, collectes annulées barrées.'
            : changes === 0
              ? 'Aucun changement sur cette période.'
              : `${changes} changement${changes > 1 ? 's' : ''} sur cette période\u00a0: ce que la modification ajoute est encadré, ce qu’elle retire est barré.`}
        </p>
        {lines.length === 0 ? (
          <p>Aucune collecte sur cette période.</p>
        ) : (
          <ul class="preview">
            {lines.map(({ collection: c, change, gone }) => {
              const fate = gone ?? fateOf(c);
              const struck = change === 'removed' || c.status === 'CANCELLED';
              return (
                <li
                  key={`${key(c)}|${change}`}
                  class={[change === 'same' ? '' : change, struck ? 'struck' : '', `status-${c.status.toLowerCase()}`].filter(Boolean).join(' ')}
                  data-date={c.date}
                  data-waste-type={c.wasteTypeId}
                  data-status={c.status}
                  data-change={change}
                >
                  <time datetime={c.date}>{frenchDate(c.date, { year: false })}</time>
                  <Swatch color={c.color} />
                  <span class="what">{c.wasteTypeName}</span>
                  {fate && <span class="fate">{fate}</span>}
                  {change === 'added' && <span class="visually-hidden"> (apportée par la modification)</span>}
                  {change === 'removed' && <span class="visually-hidden"> (retirée par la modification)</span>}
                  {c.holiday && <span class="tag">{c.holiday}</span>}
                </li>
              );
            })}
          </ul>
        )}
      </>
    );
  }
  return (
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">Collectes des {PREVIEW_DAYS} prochains jours</h2>
      {body}
    </section>
  );
}
