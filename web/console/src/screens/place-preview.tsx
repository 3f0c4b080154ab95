// The next 60 days of a place's collections, as saved and as they will be with the form being filled (POST
// /admin/places/:id/preview, nothing stored): collections added framed, cancelled ones struck through.
import { useEffect, useState } from 'preact/hooks';
import { get, messageOf, request } from '../api.ts';
import { Swatch } from '../table.tsx';
import type { City, Collection, CollectionDay, CollectionException, Place, WasteType } from '../types.ts';
import { dayIn, frenchDate } from './place-text.ts';

const PREVIEW_DAYS = 60;

/** What the place's screens read once: the place, its commune and the commune's waste types. */
export interface PlaceContext {
  city: City;
  place: Place;
  types: WasteType[];
}

export type DayBody = Omit<CollectionDay, 'id'> & { id?: string };
export type ExceptionBody = Omit<CollectionException, 'id'> & { id?: string };

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The next 60 days of collections as saved, and as they would be with `days` and `exceptions`; changes marked. */
export function Preview({ ctx, days, exceptions }: { ctx: PlaceContext; days?: DayBody[]; exceptions?: ExceptionBody[] }) {
  const from = dayIn(new Date().toISOString(), ctx.city.timeZone);
  const to = addDays(from, PREVIEW_DAYS - 1);
  const url = `/admin/places/${ctx.place.id}/preview?from=${from}&to=${to}`;
  const proposal = JSON.stringify({ collectionDays: days, exceptions });
  const [state, setState] = useState<{ now: Collection[]; next: Collection[] } | { error: unknown } | null>(null);
  useEffect(() => {
    let live = true;
    // A short pause while the agent types: one preview per pause, not one per key.
    const timer = setTimeout(() => {
      Promise.all([get<Collection[]>(url), request<Collection[]>('POST', url, { body: JSON.parse(proposal) }).then((a) => a.data)]).then(
        ([now, next]) => live && setState({ now, next }),
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
    const key = (c: Collection) => `${c.date}|${c.wasteTypeId}`;
    const before = new Set(state.now.map(key));
    const after = new Set(state.next.map(key));
    const removed = state.now.filter((c) => !after.has(key(c)));
    const all = [...state.next, ...removed].sort((a, b) => a.date.localeCompare(b.date) || a.wasteTypeName.localeCompare(b.wasteTypeName, 'fr'));
    const changes = removed.length + state.next.filter((c) => !before.has(key(c))).length;
    body = (
      <>
        <p class="legend" role="status">
          {changes === 0 ? 'Aucun changement sur cette période.' : `${changes} changement${changes > 1 ? 's' : ''} sur cette période\u00a0: collectes ajoutées encadrées, collectes annulées barrées.`}
        </p>
        {all.length === 0 ? (
          <p>Aucune collecte sur cette période.</p>
        ) : (
          <ul class="preview">
            {all.map((c) => {
              const change = !after.has(key(c)) ? 'removed' : !before.has(key(c)) ? 'added' : '';
              return (
                <li key={key(c)} class={change} data-date={c.date} data-waste-type={c.wasteTypeId} data-change={change || 'same'}>
                  <time datetime={c.date}>{frenchDate(c.date, { year: false })}</time>
                  <Swatch color={c.color} />
                  {c.wasteTypeName}
                  {change === 'removed' && <span class="visually-hidden"> (annulée)</span>}
                  {change === 'added' && <span class="visually-hidden"> (ajoutée)</span>}
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
