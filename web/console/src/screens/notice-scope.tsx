// Whom a service notice concerns (the whole group, some communes, or some secteurs of a commune) and, when it is to
// be sent, who will receive it: GET /admin/notices/audience for the scope as it is typed, only the latest answer
// counting. Part of the notices screen's chunk.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { get, messageOf } from '../api.ts';
import { Checkbox, RadioGroup, SelectField } from '../form-fields.tsx';
import type { NoticeAudience } from '../types.ts';
import { audienceText, placeLabel, type GroupPlaces } from './notice-text.ts';

export type ScopeKind = 'GROUP' | 'CITIES' | 'PLACES';

/** The scope as the form holds it: the choice, the communes chosen, the commune whose secteurs are shown and the secteurs chosen. */
export interface ScopeForm {
  scope: ScopeKind;
  cityIds: string[];
  placeCityId: string;
  placeIds: string[];
}

const KINDS: { value: ScopeKind; label: string }[] = [
  { value: 'GROUP', label: 'Tout le groupe' },
  { value: 'CITIES', label: 'Certaines communes' },
  { value: 'PLACES', label: 'Certains secteurs d’une commune' },
];
export const scopeKindLabel = (kind: ScopeKind): string => KINDS.find((k) => k.value === kind)!.label;

/**
 * The lists the API takes: both [] for the whole group; the communes chosen; or the secteurs chosen with their
 * communes (each place is then of the notice's cities, as the API checks). In the group's order, whatever the clicks'.
 */
export function scopeLists(group: GroupPlaces, f: ScopeForm): { cityIds: string[]; placeIds: string[] } {
  if (f.scope === 'CITIES') return { cityIds: group.cities.filter((c) => f.cityIds.includes(c.id)).map((c) => c.id), placeIds: [] };
  if (f.scope === 'PLACES') {
    const placeIds = [...group.places.keys()].filter((id) => f.placeIds.includes(id));
    const cities = new Set(placeIds.map((id) => group.places.get(id)!.cityId));
    return { cityIds: group.cities.filter((c) => cities.has(c.id)).map((c) => c.id), placeIds };
  }
  return { cityIds: [], placeIds: [] };
}

/** Why the scope cannot be saved (a choice with nothing chosen would be the whole group), or null. */
export function scopeProblem(f: ScopeForm): string | null {
  if (f.scope === 'CITIES' && f.cityIds.length === 0) return 'Choisissez au moins une commune.';
  if (f.scope === 'PLACES' && f.placeIds.length === 0) return 'Choisissez au moins un secteur.';
  return null;
}

export function ScopeFields({
  group,
  form,
  error,
  onChange,
}: {
  group: GroupPlaces;
  form: ScopeForm;
  /** The API's refusal of `cityIds` or `placeIds`, or the form's own (nothing chosen). */
  error: string | null;
  onChange: (patch: Partial<ScopeForm>) => void;
}) {
  const id = useId();
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((x) => x !== value));
  const city = group.cities.find((c) => c.id === form.placeCityId);
  const places = [...group.places].filter(([, p]) => p.cityId === form.placeCityId).sort(([, a], [, b]) => a.name.localeCompare(b.name, 'fr'));
  const chosenElsewhere = form.placeIds.filter((p) => group.places.get(p)?.cityId !== form.placeCityId);
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div class={`scope${error ? ' invalid' : ''}`}>
      <RadioGroup legend={'Qui cet avis concerne-t-il\u202f?'} value={form.scope} options={KINDS} onChange={(scope) => onChange({ scope })} />
      {form.scope === 'CITIES' && (
        <fieldset class={error ? 'invalid' : undefined} aria-describedby={errorId}>
          <legend>Communes</legend>
          <div class="choices">
            {group.cities.map((c) => (
              <Checkbox
                key={c.id}
                label={c.status === 'ACTIF' ? c.name : `${c.name} (non publiée)`}
                checked={form.cityIds.includes(c.id)}
                onChange={(on) => onChange({ cityIds: toggle(form.cityIds, c.id, on) })}
              />
            ))}
          </div>
        </fieldset>
      )}
      {form.scope === 'PLACES' && (
        <>
          <SelectField
            label="Commune des secteurs"
            value={form.placeCityId}
            options={group.cities.map((c) => ({ value: c.id, label: c.name }))}
            onChange={(placeCityId) => onChange({ placeCityId })}
          />
          <fieldset class={error ? 'invalid' : undefined} aria-describedby={errorId}>
            <legend>Secteurs de {city?.name ?? 'la commune'}</legend>
            {places.length === 0 && <p class="muted">Cette commune n’a pas de secteur.</p>}
            <div class="choices">
              {places.map(([placeId, p]) => (
                <Checkbox key={placeId} label={p.name} checked={form.placeIds.includes(placeId)} onChange={(on) => onChange({ placeIds: toggle(form.placeIds, placeId, on) })} />
              ))}
            </div>
            {chosenElsewhere.length > 0 && (
              <p class="hint">
                Aussi choisis dans d’autres communes&nbsp;: {chosenElsewhere.map((p) => placeLabel(group, p)).join(', ')}.
              </p>
            )}
          </fieldset>
        </>
      )}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

type AudienceState = { kind: 'loading' } | { kind: 'ready'; audience: NoticeAudience } | { kind: 'failed'; error: unknown };

/** Who a notice of this scope would reach now; null while nothing is to be asked (not sent, or nothing chosen). */
export function useAudience(groupId: string, lists: { cityIds: string[]; placeIds: string[] } | null): AudienceState | null {
  const [state, setState] = useState<AudienceState | null>(null);
  const latest = useRef(0);
  const key = lists && JSON.stringify(lists);
  useEffect(() => {
    const ask = ++latest.current;
    if (!lists) return setState(null);
    setState({ kind: 'loading' });
    const query = new URLSearchParams({ cityGroupId: groupId });
    for (const id of lists.cityIds) query.append('cityIds', id);
    for (const id of lists.placeIds) query.append('placeIds', id);
    get<NoticeAudience>(`/admin/notices/audience?${query}`).then(
      (audience) => ask === latest.current && setState({ kind: 'ready', audience }),
      (error) => ask === latest.current && setState({ kind: 'failed', error }),
    );
  }, [groupId, key]);
  return state;
}

/** What the agent reads under « Prévenir les abonnés »: who, and when. Announced as it changes. */
export function AudienceNote({ state, when, scopeMissing }: { state: AudienceState | null; when: string | null; scopeMissing: boolean }) {
  let who: string;
  if (scopeMissing) who = 'Choisissez qui cet avis concerne pour savoir qui le recevra.';
  else if (!state || state.kind === 'loading') who = 'Recherche des abonnés…';
  else if (state.kind === 'failed') who = messageOf(state.error);
  else who = audienceText(state.audience);
  return (
    <div class="audience notice" role="status">
      <p>{who}</p>
      {when && <p>{when}</p>}
    </div>
  );
}

