// « Jours fériés »: a city group's holiday rules (docs/api.md, exceptions and holiday rules), what each public
// holiday does to the collections of its communes, edited as a table of rules (add, remove, reorder) above the next twelve months of
// holidays as the rules would leave them (holiday-preview.tsx). Saved with the group's ETag (PATCH of
// `holidayRules` alone, which an agent of the group holding CITIES may send); a 412 is the console's conflict, a
// refusal naming `holidayRules[2].wasteTypeId` marks the third rule.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, getAll } from '../api.ts';
import { EditorForm, refusedField, useLiveRefusal } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { quoted } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import type { City, CityGroup, HolidayAction, HolidayRule, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';
import { ACTION_ORDER, ACTIONS, ALL_HOLIDAYS, HOLIDAYS, holidayName } from './holiday-text.ts';
import { HolidayPreviewPanel, useHolidayPreview } from './holiday-preview.tsx';
import './calendar.css';

/** A rule as the form holds it: `wasteTypeId` '' for every waste type. */
interface RuleRow {
  holiday: HolidayRule['holiday'];
  wasteTypeId: string;
  action: HolidayAction;
}
interface RulesForm {
  holidayRules: RuleRow[];
}

interface GroupData {
  group: CityGroup;
  cities: City[];
  /** Every waste type of the group's communes, with its label (its commune's name too when another has the same name). */
  types: { id: string; label: string }[];
}

async function loadGroup(groupId: string): Promise<GroupData> {
  const [group, cities] = await Promise.all([get<CityGroup>(`/admin/city-groups/${groupId}`), getAll<City>(`/admin/city-groups/${groupId}/cities`)]);
  const perCity = await Promise.all(cities.map(async (city) => ({ city, types: await getAll<WasteType>(`/admin/cities/${city.id}/waste-types`) })));
  const all = perCity.flatMap(({ city, types }) => types.map((t) => ({ id: t.id, name: t.name, city: city.name })));
  const named = new Map<string, number>();
  for (const t of all) named.set(t.name, (named.get(t.name) ?? 0) + 1);
  const types = all
    .map((t) => ({ id: t.id, label: named.get(t.name)! > 1 ? `${t.name} (${t.city})` : t.name }))
    .sort((a, b) => a.label.localeCompare(b.label, 'fr'));
  return { group, cities, types };
}

const toRow = (r: HolidayRule): RuleRow => ({ holiday: r.holiday, wasteTypeId: r.wasteTypeId ?? '', action: r.action });
const toRule = (r: RuleRow): HolidayRule => ({ holiday: r.holiday, wasteTypeId: r.wasteTypeId || null, action: r.action });

/** The rule a refusal names (`holidayRules[2].wasteTypeId` → the third, its waste type), or null. */
function ruleFault(err: unknown): { index: number; field: string | null; message: string } | null {
  if (!(err instanceof ApiError) || err.status !== 400 || !err.field) return null;
  const match = /^holidayRules\[(\d+)\](?:\.(\w+))?/.exec(err.field);
  return match ? { index: Number(match[1]), field: match[2] ?? null, message: err.message } : null;
}

export default function HolidaysScreen({ params }: ScreenProps) {
  const { cityGroupId } = params;
  const data = useResource(`holidays:${cityGroupId}`, () => loadGroup(cityGroupId));
  return (
    <Loaded resource={data} what="de la collectivité">
      {(d) => <HolidayRules key={cityGroupId} data={d} />}
    </Loaded>
  );
}

function HolidayRules({ data }: { data: GroupData }) {
  const { group, cities, types } = data;
  const [status, setStatus] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const editor = useEditor<CityGroup, RulesForm>({
    key: `holidayRules:${group.id}`,
    url: `/admin/city-groups/${group.id}`,
    empty: { holidayRules: [] },
    toForm: (g) => ({ holidayRules: g.holidayRules.map(toRow) }),
    toBody: (f) => ({ holidayRules: f.holidayRules.map(toRule) }),
    onSaved: () => {
      setStatus('Règles des jours fériés enregistrées.');
      setVersion((n) => n + 1);
    },
  });
  const rows = editor.form?.holidayRules ?? null;
  const preview = useHolidayPreview(group.id, rows && rows.map(toRule), version);
  // A save's refusal speaks of the rules as they were sent: once they change, the preview's check speaks instead.
  const { saveError } = useLiveRefusal(editor);
  const fault = ruleFault(preview && 'error' in preview ? preview.error : null) ?? ruleFault(saveError);
  const listFault = !fault && refusedField(saveError) === 'holidayRules' ? (saveError as ApiError).message : null;

  const alsace = cities.filter((c) => c.holidayCalendar === 'FR-ALSACE-MOSELLE');
  const alsaceKeys = new Set(HOLIDAYS.filter((h) => h.alsace).map((h) => h.key));
  const typeLabel = new Map(types.map((t) => [t.id, t.label]));
  // Focus follows a rule moved up or down, and goes to a rule added.
  const [focus, setFocus] = useState<{ index: number; control: 'up' | 'down' | 'holiday' } | null>(null);
  useEffect(() => {
    if (!focus) return;
    const row = document.querySelector(`[data-rule="${focus.index}"]`);
    const wanted = row?.querySelector<HTMLElement>(`[data-control="${focus.control}"]`);
    const other = row?.querySelector<HTMLElement>(`[data-control="${focus.control === 'up' ? 'down' : 'up'}"]`);
    (wanted && !(wanted as HTMLButtonElement).disabled ? wanted : other)?.focus();
    setFocus(null);
  }, [focus]);

  const setRows = (next: RuleRow[]) => {
    setStatus(null);
    editor.set({ holidayRules: next });
  };
  const change = (i: number, patch: Partial<RuleRow>) => rows && setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: -1 | 1) => {
    if (!rows) return;
    const next = [...rows];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setRows(next);
    setFocus({ index: i + by, control: by < 0 ? 'up' : 'down' });
  };
  const add = () => {
    if (!rows) return;
    // The first holiday without a rule for every waste type yet, so that the new rule is not a duplicate.
    const taken = new Set(rows.filter((r) => r.wasteTypeId === '').map((r) => r.holiday));
    const holiday = (['*', ...HOLIDAYS.filter((h) => !h.alsace || alsace.length > 0).map((h) => h.key)] as RuleRow['holiday'][]).find((k) => !taken.has(k)) ?? '*';
    setRows([...rows, { holiday, wasteTypeId: '', action: 'NEXT_DAY' }]);
    setFocus({ index: rows.length, control: 'holiday' });
  };

  const holidayOptions = (current: string) => [
    { value: '*', label: ALL_HOLIDAYS },
    ...HOLIDAYS.filter((h) => !h.alsace || alsace.length > 0 || h.key === current).map((h) => ({ value: h.key, label: h.alsace ? `${h.name} (Alsace-Moselle)` : h.name })),
  ];
  const typeOptions = (current: string) => [
    { value: '', label: 'Tous' },
    ...types.map((t) => ({ value: t.id, label: t.label })),
    ...(current && !typeLabel.has(current) ? [{ value: current, label: 'Type de déchets inconnu' }] : []),
  ];
  const summary = (v: unknown) => {
    const list = (v as RuleRow[] | undefined) ?? [];
    if (list.length === 0) return 'Aucune règle';
    return (
      <ol>
        {list.map((r, i) => (
          <li key={i}>
            {holidayName(r.holiday)}, {r.wasteTypeId ? (typeLabel.get(r.wasteTypeId) ?? 'type inconnu') : 'tous les types'}&nbsp;: {ACTIONS[r.action].toLowerCase()}
          </li>
        ))}
      </ol>
    );
  };

  return (
    <section>
      <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }]} />
      <Title text={`Jours fériés – ${group.name}`}>Jours fériés – {group.name}</Title>
      <p class="muted">
        Ce que deviennent les collectes des communes de {group.name} un jour férié.
        {alsace.length > 0 && ` Calendrier d’Alsace-Moselle (Vendredi saint et Saint-Étienne fériés)\u00a0: ${alsace.map((c) => c.name).join(', ')}.`}
      </p>
      <Notices status={status} problem={null} />
      <EditorForm
        editor={editor}
        label="Règles des jours fériés"
        labels={{ holidayRules: 'Règles des jours fériés' }}
        show={summary}
        atFields={['holidayRules']}
        onCancel={() => {
          editor.reload();
          setStatus('Modifications abandonnées.');
        }}
      >
        {(f) => (
          <>
            <h2>Règles</h2>
            {f.holidayRules.length === 0 ? (
              <p class="muted">Aucune règle&nbsp;: les jours fériés, les collectes ont lieu comme d’habitude.</p>
            ) : (
              <div class="table-wrap">
                <table class="rules">
                  <caption class="visually-hidden">Règles des jours fériés</caption>
                  <thead>
                    <tr>
                      <th scope="col" class="num">N°</th>
                      <th scope="col">Jour férié</th>
                      <th scope="col">Type de déchets</th>
                      <th scope="col">Ce jour-là</th>
                      <th scope="col" class="actions-cell">Ordre</th>
                    </tr>
                  </thead>
                  <tbody>
                    {f.holidayRules.map((r, i) => {
                      const n = i + 1;
                      const wrong = fault?.index === i ? fault : null;
                      const errorId = `rule-error-${i}`;
                      const invalid = (field: string) => (wrong && (wrong.field === field || wrong.field === null) ? true : undefined);
                      const describedBy = wrong ? errorId : undefined;
                      return [
                        <tr key={`rule-${i}`} data-rule={i} class={wrong ? 'invalid' : undefined}>
                          <td class="num">{n}</td>
                          <td>
                            <select
                              data-control="holiday"
                              aria-label={`Jour férié, règle ${n}`}
                              aria-invalid={invalid('holiday')}
                              aria-describedby={describedBy}
                              value={r.holiday}
                              onChange={(e) => change(i, { holiday: e.currentTarget.value as RuleRow['holiday'] })}
                            >
                              {holidayOptions(r.holiday).map((o) => (
                                <option key={o.value} value={o.value}>
                                  {o.label}
                                </option>
                              ))}
                            </select>
                          </td>
                          <td>
                            <select
                              aria-label={`Type de déchets, règle ${n}`}
                              aria-invalid={invalid('wasteTypeId')}
                              aria-describedby={describedBy}
                              value={r.wasteTypeId}
                              onChange={(e) => change(i, { wasteTypeId: e.currentTarget.value })}
                            >
                              {typeOptions(r.wasteTypeId).map((o) => (
                                <option key={o.value} value={o.value}>
                                  {o.label}
                                </option>
                              ))}
                            </select>
                          </td>
                          <td>
                            <select
                              aria-label={`Ce jour-là, règle ${n}`}
                              aria-invalid={invalid('action')}
                              aria-describedby={describedBy}
                              value={r.action}
                              onChange={(e) => change(i, { action: e.currentTarget.value as HolidayAction })}
                            >
                              {ACTION_ORDER.map((a) => (
                                <option key={a} value={a}>
                                  {ACTIONS[a]}
                                </option>
                              ))}
                            </select>
                          </td>
                          <td class="actions-cell">
                            <button type="button" class="link-button" data-control="up" disabled={i === 0} onClick={() => move(i, -1)}>
                              Monter<span class="visually-hidden"> la règle {n}</span>
                            </button>
                            <button type="button" class="link-button" data-control="down" disabled={i === f.holidayRules.length - 1} onClick={() => move(i, 1)}>
                              Descendre<span class="visually-hidden"> la règle {n}</span>
                            </button>
                            <button type="button" class="link-button danger" onClick={() => setRows(f.holidayRules.filter((_, j) => j !== i))}>
                              Supprimer<span class="visually-hidden"> la règle {n}</span>
                            </button>
                          </td>
                        </tr>,
                        wrong && (
                          <tr key={`rule-error-${i}`} class="rule-error">
                            <td colSpan={5} id={errorId}>
                              Règle {n}&nbsp;: {wrong.message}
                            </td>
                          </tr>
                        ),
                      ];
                    })}
                  </tbody>
                </table>
              </div>
            )}
            {listFault && <p class="field-error">{listFault}</p>}
            <p>
              <button type="button" class="button secondary" onClick={add}>
                Ajouter une règle
              </button>
            </p>
            <p class="hint">
              La règle la plus précise s’applique&nbsp;: un jour férié nommé l’emporte sur {quoted(ALL_HOLIDAYS)}, un type de déchets sur {quoted('Tous')}. Sans
              règle, la collecte est maintenue, et l’exception d’un secteur l’emporte sur ces règles. Reportée au lendemain ou avancée à la veille&nbsp;: au
              premier jour qui n’est ni un dimanche ni un jour férié. Décalage d’un jour jusqu’au samedi&nbsp;: cette collecte et les suivantes de la semaine ont
              lieu un jour plus tard.
            </p>
          </>
        )}
      </EditorForm>
      {/* Below the rules, not beside them: the table needs the screen's whole width. */}
      {editor.form && <HolidayPreviewPanel state={preview} alsaceKeys={alsaceKeys} withCities={cities.length > 1} />}
    </section>
  );
}
