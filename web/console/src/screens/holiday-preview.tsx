// What a group's holiday rules do over the next twelve months, as saved and as typed (POST
// /admin/city-groups/:id/holiday-preview, nothing stored): each public holiday with what happens to the collections
// planned that day, the holidays the typed rules change framed. Part of the « Jours fériés » screen (its chunk).
import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api.ts';
import { counted, frenchDate } from '../french.ts';
import type { HolidayPreview, HolidayRule } from '../types.ts';
import { ACTIONS } from './holiday-text.ts';

export type PreviewState = { stored: HolidayPreview; next: HolidayPreview } | { error: unknown } | null;

/**
 * The preview as saved and with `rules` (null: nothing typed yet), asked again a short pause after each change and
 * after each save (`version`); only the latest answer counts.
 */
export function useHolidayPreview(groupId: string, rules: HolidayRule[] | null, version: number): PreviewState {
  const [state, setState] = useState<PreviewState>(null);
  const proposal = rules === null ? null : JSON.stringify({ holidayRules: rules });
  useEffect(() => {
    if (proposal === null) return;
    let live = true;
    const url = `/admin/city-groups/${groupId}/holiday-preview`;
    const timer = setTimeout(() => {
      Promise.all([request<HolidayPreview>('POST', url, { body: {} }), request<HolidayPreview>('POST', url, { body: JSON.parse(proposal) })]).then(
        ([stored, next]) => live && setState({ stored: stored.data, next: next.data }),
        (error) => live && setState({ error }),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [groupId, proposal, version]);
  return state;
}

type Effect = HolidayPreview['holidays'][number]['effects'][number];

const dayAndMonth = (day: string) => frenchDate(day, { year: false });

/** What happens to a waste type's collections on a holiday, the same in several communes: one line. */
interface Outcome {
  wasteTypeName: string;
  /** « reportée au samedi 26 décembre », « collecte maintenue »… */
  fate: string;
  places: number;
  byException: number;
  cities: string[];
}

/** « reportée au samedi 26 décembre », « collecte maintenue »: what the rules do to the collections of an effect. */
function fateOf(e: Effect, date: string): string {
  if (e.byException === e.places) return 'une exception du secteur décide';
  if (e.action === 'KEEP') return 'collecte maintenue';
  if (e.action === 'CANCEL') return 'collecte annulée';
  if (e.movedTo) return `${e.movedTo > date ? 'reportée' : 'avancée'} au ${dayAndMonth(e.movedTo)}`;
  return ACTIONS[e.action].toLowerCase();
}

/** A holiday's effects, those of the same waste type name with the same fate in several communes on one line. */
function outcomesOf(effects: Effect[], date: string): Outcome[] {
  const outcomes = new Map<string, Outcome>();
  for (const e of effects) {
    const fate = fateOf(e, date);
    const key = `${e.wasteTypeName}|${fate}`;
    const outcome = outcomes.get(key) ?? { wasteTypeName: e.wasteTypeName, fate, places: 0, byException: 0, cities: [] };
    outcome.places += e.places;
    outcome.byException += e.byException;
    outcome.cities.push(e.cityName);
    outcomes.set(key, outcome);
  }
  return [...outcomes.values()].sort((a, b) => a.wasteTypeName.localeCompare(b.wasteTypeName, 'fr') || a.fate.localeCompare(b.fate, 'fr'));
}

/** One line: the waste type, its fate, how many sectors (and how many an exception decides), and the communes. */
function outcomeText(o: Outcome, withCities: boolean): string {
  const sectors = counted(o.places, 'secteur', 'secteurs');
  const except = o.byException > 0 && o.byException < o.places ? `, dont ${counted(o.byException, 'où une exception décide', 'où une exception décide')}` : '';
  const cities = withCities ? `\u00a0: ${o.cities.join(', ')}` : '';
  return `${o.wasteTypeName}\u00a0: ${o.fate} (${sectors}${except}${cities})`;
}

export function HolidayPreviewPanel({
  state,
  withCities,
  alsaceKeys,
}: {
  state: PreviewState;
  /** Whether to name the communes of each line (the group has several). */
  withCities: boolean;
  /** Holidays observed only by the cities on Alsace-Moselle's calendar. */
  alsaceKeys: ReadonlySet<string>;
}) {
  let body;
  if (state === null) body = <p class="muted">Calcul de l’aperçu…</p>;
  else if ('error' in state) body = <p class="problem">Aperçu impossible&nbsp;: {messageOf(state.error)}</p>;
  else {
    const before = new Map(state.stored.holidays.map((h) => [h.date, JSON.stringify(h.effects)]));
    const changed = state.next.holidays.filter((h) => before.get(h.date) !== JSON.stringify(h.effects)).length;
    body = (
      <>
        <p class="legend" role="status">
          {changed === 0
            ? `Du ${frenchDate(state.next.from)} au ${frenchDate(state.next.to)}, avec les règles enregistrées.`
            : `${counted(changed, 'jour férié change', 'jours fériés changent')} avec vos modifications (encadrés).`}
        </p>
        <ol class="holidays">
          {state.next.holidays.map((h) => (
            <li key={h.date} class={before.get(h.date) !== JSON.stringify(h.effects) ? 'changed' : undefined} data-holiday={h.holiday} data-date={h.date}>
              <h3>
                {h.name}, <time datetime={h.date}>{frenchDate(h.date)}</time>
                {before.get(h.date) !== JSON.stringify(h.effects) && <span class="visually-hidden"> (changé par vos modifications)</span>}
              </h3>
              {alsaceKeys.has(h.holiday) && (
                <p class="cities">Férié en Alsace-Moselle seulement&nbsp;: {h.cities.map((c) => c.name).join(', ')}.</p>
              )}
              {h.effects.length === 0 ? (
                <p class="muted">Aucune collecte prévue ce jour-là.</p>
              ) : (
                <ul>
                  {outcomesOf(h.effects, h.date).map((o) => (
                    <li key={`${o.wasteTypeName}|${o.fate}`}>{outcomeText(o, withCities)}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </>
    );
  }
  return (
    <section class="card" aria-labelledby="holiday-preview-title">
      <h2 id="holiday-preview-title">Les jours fériés des douze prochains mois</h2>
      {body}
    </section>
  );
}
