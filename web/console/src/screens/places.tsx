// A commune's collection places (sectors): the list, each with its days, and a form to add one.
import { get, getAll } from '../api.ts';
import { EditorForm, fieldError } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { TextField } from '../form-fields.tsx';
import type { ScreenProps } from '../screens.ts';
import { Swatch, Table } from '../table.tsx';
import type { City, Place, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Title, useResource } from '../ui.tsx';
import { dayRule } from './place-text.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ofName } from '../french.ts';

/** A new place, named here: its days, exceptions and area are given on its own screen, where the agent goes next. */
function NewPlace({ cityId }: { cityId: string }) {
  const editor = useEditor<Place, { name: string }>({
    key: `place:new:${cityId}`,
    url: null,
    createUrl: `/admin/cities/${cityId}/places`,
    empty: { name: '' },
    toForm: (p) => ({ name: p.name }),
    toBody: (f) => ({ name: f.name.trim() }),
    onSaved: (p) => navigate(`/console/secteurs/${p.id}`),
  });
  return (
    <EditorForm
      editor={editor}
      id="new-place"
      title={() => 'Nouveau secteur'}
      labels={{ name: 'Nom du secteur' }}
      atFields={['name']}
      onCancel={() => editor.reload()}
    >
      {(f) => <TextField label="Nom du secteur" value={f.name} required maxLength={200} error={fieldError(editor, 'name')} onInput={(name) => editor.set({ name })} />}
    </EditorForm>
  );
}

export default function Places({ params }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    places: await getAll<Place>(`/admin/cities/${cityId}/places`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  return (
    <Loaded resource={data} what="des secteurs">
      {({ city, places, types }) => {
        const typeOf = new Map(types.map((t) => [t.id, t]));
        return (
          <section>
            <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }, { href: `/console/communes/${cityId}`, label: city.name }]} />
            <Title text={`Secteurs – ${city.name}`}>Secteurs de collecte</Title>
            <Table
              caption={`Secteurs ${ofName(city.name)}`}
              rows={places}
              rowKey={(p) => p.id}
              empty="Aucun secteur pour cette commune."
              columns={[
                { label: 'Secteur', cell: (p) => <Link href={`/console/secteurs/${p.id}`}>{p.name}</Link> },
                {
                  label: 'Jours de collecte',
                  cell: (p) => (
                    <ul class="plain">
                      {p.collectionDays.map((d) => (
                        <li key={d.id}>
                          <Swatch color={typeOf.get(d.wasteTypeId)?.color ?? null} />
                          {typeOf.get(d.wasteTypeId)?.name ?? '?'}&nbsp;: {dayRule(d, city.timeZone)}
                        </li>
                      ))}
                    </ul>
                  ),
                },
                { label: 'Exceptions', cell: (p) => p.exceptions.length },
              ]}
            />
            <NewPlace cityId={cityId} />
          </section>
        );
      }}
    </Loaded>
  );
}
