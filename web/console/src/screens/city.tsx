// One commune: its data screens, and its own settings (name, time zone, the calendar of public holidays it follows).
import { currentUser, get, holds } from '../api.ts';
import { EditorForm, fieldError } from '../editor-form.tsx';
import { useEditing, useEditor } from '../editor.tsx';
import { SelectField, TextField } from '../form-fields.tsx';
import type { ScreenProps } from '../screens.ts';
import type { City } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';

type Calendar = City['holidayCalendar'];

const CALENDARS: { value: Calendar; label: string }[] = [
  { value: 'FR', label: 'National (11 jours fériés)' },
  { value: 'FR-ALSACE-MOSELLE', label: 'Alsace-Moselle (avec le Vendredi saint et la Saint-Étienne)' },
];

interface CityForm {
  name: string;
  timeZone: string;
  holidayCalendar: Calendar;
}

const LABELS: Record<keyof CityForm, string> = {
  name: 'Nom',
  timeZone: 'Fuseau horaire',
  holidayCalendar: 'Calendrier des jours fériés',
};

function CityEditor({ cityId, onDone }: { cityId: string; onDone: (message: string | null) => void }) {
  const editor = useEditor<City, CityForm>({
    key: `city:${cityId}`,
    url: `/admin/cities/${cityId}`,
    empty: { name: '', timeZone: 'Europe/Paris', holidayCalendar: 'FR' },
    toForm: (c) => ({ name: c.name, timeZone: c.timeZone, holidayCalendar: c.holidayCalendar }),
    toBody: (f) => ({ name: f.name.trim(), timeZone: f.timeZone.trim() || null, holidayCalendar: f.holidayCalendar }),
    onSaved: (c) => onDone(`Commune ${c.name} enregistrée.`),
  });
  return (
    <EditorForm
      editor={editor}
      id="city-form-title"
      title={() => 'Modifier la commune'}
      labels={LABELS}
      show={(v, field) => (field === 'holidayCalendar' ? (CALENDARS.find((c) => c.value === v)?.label ?? String(v)) : String(v ?? '—'))}
      atFields={['name', 'timeZone', 'holidayCalendar']}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <>
          <TextField label={LABELS.name} value={f.name} required maxLength={200} error={fieldError(editor, 'name')} onInput={(name) => editor.set({ name })} />
          <TextField
            label={LABELS.timeZone}
            value={f.timeZone}
            hint="Le fuseau IANA où tombent les jours de collecte (par exemple Europe/Paris, America/Cayenne)."
            error={fieldError(editor, 'timeZone')}
            onInput={(timeZone) => editor.set({ timeZone })}
          />
          <SelectField
            label={LABELS.holidayCalendar}
            value={f.holidayCalendar}
            options={CALENDARS}
            hint="Les communes du Bas-Rhin, du Haut-Rhin et de la Moselle suivent le calendrier d’Alsace-Moselle. Les règles des jours fériés de la collectivité s’y appliquent aussi à ces deux jours."
            error={fieldError(editor, 'holidayCalendar')}
            onChange={(holidayCalendar) => editor.set({ holidayCalendar: holidayCalendar as Calendar })}
          />
        </>
      )}
    </EditorForm>
  );
}

export default function CityScreen({ params, query }: ScreenProps) {
  const city = useResource(params.cityId, () => get<City>(`/admin/cities/${params.cityId}`));
  const { editing, status, open, done } = useEditing(query, city.reload);
  const base = `/console/communes/${params.cityId}`;
  return (
    <Loaded resource={city} what="de la commune">
      {(c) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }]} />
          <Title text={c.name}>{c.name}</Title>
          <p class="muted">
            {c.status === 'ACTIF' ? 'Publiée' : 'Non publiée'} · fuseau horaire {c.timeZone} · jours fériés{' '}
            {c.holidayCalendar === 'FR-ALSACE-MOSELLE' ? 'd’Alsace-Moselle' : 'nationaux'}{' '}
            {editing !== 'commune' && (
              <button type="button" class="link-button" onClick={() => open('commune')}>
                Modifier la commune
              </button>
            )}
          </p>
          <Notices status={status} problem={null} />
          {editing === 'commune' && <CityEditor cityId={c.id} onDone={done} />}
          <ul class="tiles">
            <li>
              <Link href={`${base}/types-de-dechets`}>Types de déchets</Link>
            </li>
            <li>
              <Link href={`${base}/secteurs`}>Secteurs et jours de collecte</Link>
            </li>
            <li>
              <Link href={`${base}/points-d-apport`}>Points d’apport et déchèteries</Link>
            </li>
            <li>
              <Link href={`${base}/quiz`}>Questions du quiz de tri</Link>
            </li>
            {holds(currentUser(), 'REQUESTS') && (
              <li>
                <Link href={`${base}/encombrants`}>Enlèvement des encombrants</Link>
              </li>
            )}
            {c.cityGroupId && (
              <li>
                <Link href={`/console/collectivites/${c.cityGroupId}/jours-feries`}>Jours fériés de la collectivité</Link>
              </li>
            )}
            {c.cityGroupId && (
              <li>
                <Link href={`/console/collectivites/${c.cityGroupId}/avis`}>Avis aux habitants de la collectivité</Link>
              </li>
            )}
            {c.cityGroupId && (
              <li>
                <Link href={`/console/collectivites/${c.cityGroupId}/widgets?commune=${c.id}`}>Widgets pour le site de la commune</Link>
              </li>
            )}
          </ul>
        </section>
      )}
    </Loaded>
  );
}
