// A service notice's form (docs/api.md, service notices): its text, its importance, whom it concerns, when it is in
// force (day and time in its communes' time), and whether the reminder subscribers get it, with who they are and
// when it goes. Saved as every record of the console (EditorForm: a draft, If-Match, the 412's conflict); the API's
// refusal is shown at the field it names (`endsAt`, `placeIds[1]`).
import { useState } from 'preact/hooks';
import { EditorForm, fieldError, refusedField, useLiveRefusal } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { Checkbox, RadioGroup, TextArea, TextField } from '../form-fields.tsx';
import type { AdminNotice } from '../types.ts';
import { AudienceNote, ScopeFields, scopeKindLabel, scopeLists, scopeProblem, useAudience, type ScopeForm, type ScopeKind } from './notice-scope.tsx';
import { cityLabel, frenchInstant, frenchWallTime, groupZone, instantOf, noticeZone, placeLabel, wallTime, zoneTown, type GroupPlaces, type WallTime } from './notice-text.ts';

/** The API's limits (docs/api.md, service notices). */
const TITLE_MAX = 200;
const BODY_MAX = 1000;

type Severity = AdminNotice['severity'];

/** A date of the form: its day and time, and the instant the record held (sent back as it was while the minute is the same). */
interface Moment extends WallTime {
  was: string | null;
}

interface NoticeForm extends ScopeForm {
  title: string;
  body: string;
  severity: Severity;
  startsAt: Moment;
  /** null: in force until deleted. */
  endsAt: Moment | null;
  notify: boolean;
}

const LABELS: Record<keyof NoticeForm, string> = {
  title: 'Titre',
  body: 'Texte de l’avis',
  severity: 'Importance',
  scope: 'Concerne',
  cityIds: 'Communes',
  placeCityId: 'Commune des secteurs',
  placeIds: 'Secteurs',
  startsAt: 'Début',
  endsAt: 'Fin',
  notify: 'Prévenir les abonnés',
};

const SEVERITIES: { value: Severity; label: string }[] = [
  { value: 'INFO', label: 'Information' },
  { value: 'WARNING', label: 'Important' },
];
export const severityLabel = (s: Severity): string => SEVERITIES.find((x) => x.value === s)!.label;

const ENDS: { value: 'never' | 'at'; label: string }[] = [
  { value: 'never', label: 'Jusqu’à suppression' },
  { value: 'at', label: 'À une date' },
];

/** The time a notice's dates are typed in: its first commune's, else the group's. */
const zoneOf = (group: GroupPlaces, scope: ScopeForm): string => noticeZone(group, scopeLists(group, scope));

function addDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const sameMinute = (a: string, b: string) => Math.floor(Date.parse(a) / 60_000) === Math.floor(Date.parse(b) / 60_000);

/** The instant to send for a date of the form: the record's own while it names the same minute (no change of seconds). */
function momentInstant(m: Moment, timeZone: string): string | null {
  const instant = instantOf(m, timeZone);
  return instant && m.was && sameMinute(instant, m.was) ? m.was : instant;
}

function scopeOfRecord(group: GroupPlaces, n: Pick<AdminNotice, 'cityIds' | 'placeIds'>): ScopeForm {
  const firstCity = group.cities[0]?.id ?? '';
  if (n.placeIds.length > 0) {
    const placeCityId = n.cityIds.length === 1 ? n.cityIds[0] : (group.places.get(n.placeIds[0])?.cityId ?? firstCity);
    return { scope: 'PLACES', cityIds: [], placeCityId, placeIds: n.placeIds };
  }
  if (n.cityIds.length > 0) return { scope: 'CITIES', cityIds: n.cityIds, placeCityId: n.cityIds[0], placeIds: [] };
  return { scope: 'GROUP', cityIds: [], placeCityId: firstCity, placeIds: [] };
}

/** A new notice: for the whole group, from now (to the minute), until deleted, not sent. */
function emptyForm(group: GroupPlaces): NoticeForm {
  const scope = scopeOfRecord(group, { cityIds: [], placeIds: [] });
  return { title: '', body: '', severity: 'INFO', ...scope, startsAt: { ...wallTime(new Date().toISOString(), groupZone(group)), was: null }, endsAt: null, notify: false };
}

/** What the form cannot save (the API never sees a half-typed date), each at its field. */
function problems(group: GroupPlaces, f: NoticeForm): Partial<Record<'scope' | 'startsAt' | 'endsAt', string>> {
  const zone = zoneOf(group, f);
  const out: Partial<Record<'scope' | 'startsAt' | 'endsAt', string>> = {};
  const scope = scopeProblem(f);
  if (scope) out.scope = scope;
  if (!instantOf(f.startsAt, zone)) out.startsAt = 'Indiquez le jour et l’heure du début.';
  if (f.endsAt && !instantOf(f.endsAt, zone)) out.endsAt = 'Indiquez le jour et l’heure de la fin, ou choisissez «\u00a0Jusqu’à suppression\u00a0».';
  return out;
}

/** Why the end cannot be (the API refuses it too, at the same field), shown as the agent types; or null. */
function orderProblem(f: NoticeForm, zone: string): string | null {
  const start = instantOf(f.startsAt, zone);
  const end = f.endsAt && instantOf(f.endsAt, zone);
  return start && end && Date.parse(end) <= Date.parse(start) ? 'La fin doit suivre le début.' : null;
}

/** When the subscribers get it, as the agent types the start. */
function sendingWhen(f: NoticeForm, zone: string, now = Date.now()): string | null {
  const start = instantOf(f.startsAt, zone);
  if (!start) return null;
  const end = f.endsAt && instantOf(f.endsAt, zone);
  if (end && Date.parse(end) <= now) return 'Il ne sera pas envoyé\u00a0: sa fin est passée.';
  if (Date.parse(start) <= now) return 'Il sera envoyé dès l’enregistrement.';
  return `Il sera envoyé à son début, le ${frenchWallTime(f.startsAt)}.`;
}

/** A day and a time, side by side, said back in French under them. */
function MomentFields({
  which,
  value,
  zone,
  error,
  onChange,
}: {
  which: 'début' | 'fin';
  value: Moment;
  zone: string;
  error: string | null;
  onChange: (m: Moment) => void;
}) {
  const complete = instantOf(value, zone) !== null;
  return (
    <div class="row moment">
      {/* A plain date input: the hint says the day and time back in French (DateField would say the day twice). */}
      <TextField
        type="date"
        label={`Jour de ${which}`}
        value={value.day}
        required
        error={error}
        hint={complete ? `${which === 'début' ? 'Début' : 'Fin'}\u00a0: ${frenchWallTime(value)}.` : 'Le jour, puis l’heure.'}
        onInput={(day) => onChange({ ...value, day })}
      />
      <TextField
        label={`Heure de ${which}`}
        type="time"
        value={value.time}
        required
        hint={`Heure de ${zoneTown(zone)}.`}
        onInput={(time) => onChange({ ...value, time })}
      />
    </div>
  );
}

export function NoticeEditor({
  group,
  groupId,
  id,
  notifiedAt,
  onDone,
}: {
  group: GroupPlaces;
  groupId: string;
  /** The notice to change; null for a new one. */
  id: string | null;
  /** When it was sent to the subscribers, as the list read it. */
  notifiedAt: string | null;
  onDone: (saved: AdminNotice | null, created: boolean) => void;
}) {
  const [tried, setTried] = useState(false);
  const editor = useEditor<AdminNotice, NoticeForm>({
    key: id ? `notice:${id}` : `notice:new:${groupId}`,
    url: id ? `/admin/notices/${id}` : null,
    createUrl: '/admin/notices',
    empty: emptyForm(group),
    toForm: (n) => {
      const scope = scopeOfRecord(group, n);
      const zone = zoneOf(group, scope);
      return {
        title: n.title,
        body: n.body,
        severity: n.severity,
        ...scope,
        startsAt: { ...wallTime(n.startsAt, zone), was: n.startsAt },
        endsAt: n.endsAt ? { ...wallTime(n.endsAt, zone), was: n.endsAt } : null,
        notify: n.notify,
      };
    },
    toBody: (f, creating) => {
      const zone = zoneOf(group, f);
      return {
        ...(creating ? { cityGroupId: groupId } : {}),
        ...scopeLists(group, f),
        title: f.title.trim(),
        body: f.body.trim(),
        severity: f.severity,
        startsAt: momentInstant(f.startsAt, zone),
        endsAt: f.endsAt && momentInstant(f.endsAt, zone),
        notify: f.notify,
      };
    },
    onSaved: (n, created) => onDone(n, created),
  });
  const refusal = useLiveRefusal(editor);
  const at = (field: string) => fieldError(refusal, field);
  const form = editor.form;
  const sending = form?.notify && !notifiedAt ? scopeLists(group, form) : null;
  const audience = useAudience(groupId, sending && !scopeProblem(form!) ? sending : null);

  const show = (v: unknown, field: keyof NoticeForm) => {
    if (v === null || v === undefined || v === '') return field === 'endsAt' ? 'Jusqu’à suppression' : '—';
    if (field === 'severity') return severityLabel(v as Severity);
    if (field === 'scope') return scopeKindLabel(v as ScopeKind);
    if (field === 'notify') return v ? 'Oui' : 'Non';
    if (field === 'cityIds' || field === 'placeCityId') return ([] as string[]).concat(v as string).map((c) => cityLabel(group, c)).join(', ') || '—';
    if (field === 'placeIds') return (v as string[]).map((p) => placeLabel(group, p)).join(', ') || '—';
    if (field === 'startsAt' || field === 'endsAt') return instantOf(v as Moment, 'UTC') ? frenchWallTime(v as Moment) : '—';
    return String(v);
  };

  return (
    <EditorForm
      editor={editor}
      id="notice-form-title"
      title={() => (id ? 'Modifier l’avis' : 'Nouvel avis')}
      labels={LABELS}
      show={show}
      atFields={['title', 'body', 'severity', 'cityIds', 'placeIds', 'startsAt', 'endsAt', 'notify']}
      beforeSave={(f) => {
        setTried(true);
        return Object.keys(problems(group, f)).length === 0;
      }}
      onCancel={() => onDone(null, false)}
    >
      {(f) => {
        const zone = zoneOf(group, f);
        const own = tried ? problems(group, f) : {};
        const scopeRefused = refusedField(refusal.saveError) === 'cityIds' || refusedField(refusal.saveError) === 'placeIds';
        return (
          <>
            <TextField label={LABELS.title} value={f.title} required maxLength={TITLE_MAX} error={at('title')} onInput={(title) => editor.set({ title })} />
            <TextArea
              label={LABELS.body}
              value={f.body}
              rows={6}
              required
              maxLength={BODY_MAX}
              hint={`${f.body.length.toLocaleString('fr-FR')}\u00a0${f.body.length > 1 ? 'caractères' : 'caractère'} sur ${BODY_MAX.toLocaleString('fr-FR')}. Le texte est envoyé tel quel, sans mise en forme.`}
              error={at('body')}
              onInput={(body) => editor.set({ body })}
            />
            <RadioGroup
              legend={LABELS.severity}
              value={f.severity}
              options={SEVERITIES}
              hint="Important&nbsp;: ce que les habitants doivent faire (sortir leur bac un autre jour, l’apporter ailleurs)."
              onChange={(severity) => editor.set({ severity })}
            />
            {at('severity') && <p class="field-error">{at('severity')}</p>}
            <ScopeFields
              group={group}
              form={f}
              error={scopeRefused ? (refusal.saveError as Error).message : (own.scope ?? null)}
              onChange={(patch) => editor.set(patch)}
            />
            <fieldset>
              <legend>Période</legend>
              <MomentFields which="début" value={f.startsAt} zone={zone} error={at('startsAt') ?? own.startsAt ?? null} onChange={(startsAt) => editor.set({ startsAt })} />
              <RadioGroup
                legend="Fin"
                value={f.endsAt ? 'at' : 'never'}
                options={ENDS}
                onChange={(end) => editor.set({ endsAt: end === 'never' ? null : { day: addDay(f.startsAt.day), time: f.startsAt.time, was: null } })}
              />
              {f.endsAt && <MomentFields which="fin" value={f.endsAt} zone={zone} error={at('endsAt') ?? own.endsAt ?? orderProblem(f, zone)} onChange={(endsAt) => editor.set({ endsAt })} />}
              {!f.endsAt && at('endsAt') && <p class="field-error">{at('endsAt')}</p>}
            </fieldset>
            <Checkbox label={LABELS.notify} checked={f.notify || notifiedAt !== null} disabled={notifiedAt !== null} error={at('notify')} onChange={(notify) => editor.set({ notify })} />
            {notifiedAt ? (
              <p class="notice">
                Cet avis a été envoyé aux abonnés le {frenchInstant(notifiedAt, zone)}&nbsp;: une modification ne leur sera pas envoyée de nouveau.
              </p>
            ) : f.notify ? (
              <AudienceNote state={audience} when={sendingWhen(f, zone)} scopeMissing={scopeProblem(f) !== null} />
            ) : (
              <p class="hint">Cochée, l’avis est envoyé une fois aux abonnés aux rappels des secteurs concernés, par notification ou par e-mail, à son début.</p>
            )}
          </>
        );
      }}
    </EditorForm>
  );
}
