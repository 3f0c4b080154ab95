// One collection place: its days and exceptions, each edited beside the next 60 days of collections as they will be
// before saving (place-preview.tsx), its name and area, its street rules and its attached locations.
import { useState } from 'preact/hooks';
import { get, getAll } from '../api.ts';
import { CrudSection } from '../crud/crud-section.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import { removeRecord, useEditing } from '../editor.tsx';
import { HistoryLink } from '../history-link.tsx';
import type { ScreenProps } from '../screens.ts';
import { Swatch, Table } from '../table.tsx';
import type { AdminException, AttachedLocation, City, Place, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';
import { PlaceEditor, describeArea } from './place-area.tsx';
import { DayEditor } from './place-days.tsx';
import { ExceptionEditor } from './place-exceptions.tsx';
import { Preview, type PlaceContext } from './place-preview.tsx';
import { streetSpec } from './place-streets.ts';
import { dayRule, exceptionText } from './place-text.ts';

/** A place's attached locations (docs/api.md, from an address to a collection place): the addresses the lookup answers with this place. */
const attachedLocationSpec = (placeId: string): ResourceSpec<AttachedLocation> => ({
  key: `attachedLocation:${placeId}`,
  noun: { label: 'Lieu rattaché', the: 'le lieu rattaché' },
  caption: 'Lieux rattachés',
  listUrl: `/admin/places/${placeId}/attached-locations`,
  itemUrl: (id) => `/admin/attached-locations/${id}`,
  fields: [
    { name: 'name', label: 'Nom du lieu', required: true, help: 'Une rue, une place, un lieu-dit.' },
    { name: 'reference', label: 'Référence', empty: '', help: 'L’identifiant de la Base adresse nationale (par exemple 29019_7547), ou vide.' },
    { name: 'latitude', label: 'Latitude', kind: 'number', short: true, help: 'En degrés décimaux (par exemple 48,3932).' },
    { name: 'longitude', label: 'Longitude', kind: 'number', short: true, help: 'En degrés décimaux (par exemple -4,4903).' },
  ],
  columns: ['name', 'reference', 'latitude', 'longitude'],
  nameOf: (l) => l.name,
  addLabel: 'Ajouter un lieu rattaché',
  empty: 'Aucun lieu rattaché à ce secteur.',
});

export default function PlaceScreen({ params, query }: ScreenProps) {
  const { placeId } = params;
  const data = useResource(placeId, async (): Promise<PlaceContext> => {
    const [place, exceptions] = await Promise.all([get<Place>(`/admin/places/${placeId}`), getAll<AdminException>(`/admin/places/${placeId}/exceptions`)]);
    const [city, types] = await Promise.all([get<City>(`/admin/cities/${place.cityId}`), getAll<WasteType>(`/admin/cities/${place.cityId}/waste-types`)]);
    return { city, place, types, exceptions };
  });
  // `?edit=jour:<id>`, `exception:nouveau`, `secteur`: the form open, and which.
  const { editing: edit, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);
  const [kind, target] = edit ? edit.split(':') : [null, null];
  const remove = async (url: string, what: string) => {
    if (!confirm(`Supprimer ${what}\u202f?`)) return;
    setProblem(null);
    try {
      await removeRecord(url);
      setStatus(`${what[0].toUpperCase()}${what.slice(1)} supprimé${what.startsWith('le ') ? '' : 'e'}.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="du secteur">
      {(ctx) => {
        const { city, place, types, exceptions } = ctx;
        const typeOf = new Map(types.map((t) => [t.id, t]));
        const typeCell = (id: string) => (
          <>
            <Swatch color={typeOf.get(id)?.color ?? null} />
            {typeOf.get(id)?.name ?? '?'}
          </>
        );
        return (
          <section>
            <Breadcrumbs
              items={[
                { href: '/console/communes', label: 'Communes' },
                { href: `/console/communes/${city.id}`, label: city.name },
                { href: `/console/communes/${city.id}/secteurs`, label: 'Secteurs' },
              ]}
            />
            <Title text={`${place.name} – ${city.name}`}>{place.name}</Title>
            <p class="muted">
              {describeArea((place as Place & { area: Parameters<typeof describeArea>[0] }).area)}{' '}
              <button type="button" class="link-button" onClick={() => open('secteur')}>
                Renommer ou changer la zone
              </button>{' '}
              <HistoryLink entity="collectionPlace" id={place.id} name={place.name} />
            </p>
            <Notices status={status} problem={problem} />
            {kind === 'jour' && <DayEditor key={edit} ctx={ctx} id={target === 'nouveau' ? null : target} onDone={done} />}
            {kind === 'exception' && <ExceptionEditor key={edit} ctx={ctx} id={target === 'nouveau' ? null : target} onDone={done} />}
            {kind === 'secteur' && <PlaceEditor key={edit} cityId={city.id} placeId={place.id} onDone={done} />}

            <h2>Jours de collecte</h2>
            <Table
              caption="Jours de collecte"
              rows={place.collectionDays}
              rowKey={(d) => d.id}
              empty="Aucun jour de collecte."
              columns={[
                { label: 'Type de déchets', cell: (d) => typeCell(d.wasteTypeId) },
                { label: 'Rythme', cell: (d) => dayRule(d, city.timeZone) },
                { label: 'Explication', cell: (d) => d.description ?? '—' },
                {
                  label: 'Actions',
                  class: 'actions-cell',
                  cell: (d) => (
                    <>
                      <button type="button" class="link-button" onClick={() => open(`jour:${d.id}`)}>
                        Modifier<span class="visually-hidden"> le {d.name} ({typeOf.get(d.wasteTypeId)?.name})</span>
                      </button>
                      <button type="button" class="link-button danger" onClick={() => void remove(`/admin/collection-days/${d.id}`, 'le jour de collecte')}>
                        Supprimer<span class="visually-hidden"> le {d.name} ({typeOf.get(d.wasteTypeId)?.name})</span>
                      </button>
                      <HistoryLink entity="collectionDay" id={d.id} name={`${d.name} (${typeOf.get(d.wasteTypeId)?.name ?? '?'})`} />
                    </>
                  ),
                },
              ]}
            />
            <p>
              <button type="button" class="button secondary" onClick={() => open('jour:nouveau')}>
                Ajouter un jour de collecte
              </button>
            </p>

            <h2>Exceptions</h2>
            <Table
              caption="Exceptions"
              rows={exceptions}
              rowKey={(x) => x.id}
              empty="Aucune exception."
              columns={[
                { label: 'Type de déchets', cell: (x) => typeCell(x.wasteTypeId) },
                { label: 'Collecte', cell: (x) => exceptionText(x, city.timeZone) },
                { label: 'Titre', cell: (x) => x.name ?? '—' },
                { label: 'Explication', cell: (x) => x.description ?? '—' },
                {
                  label: 'Actions',
                  class: 'actions-cell',
                  cell: (x) => (
                    <>
                      <button type="button" class="link-button" onClick={() => open(`exception:${x.id}`)}>
                        Modifier<span class="visually-hidden"> l’exception {x.name ?? ''}</span>
                      </button>
                      <button type="button" class="link-button danger" onClick={() => void remove(`/admin/exceptions/${x.id}`, 'l’exception')}>
                        Supprimer<span class="visually-hidden"> l’exception {x.name ?? ''}</span>
                      </button>
                      <HistoryLink entity="exception" id={x.id} name={x.name ?? exceptionText(x, city.timeZone)} />
                    </>
                  ),
                },
              ]}
            />
            <p>
              <button type="button" class="button secondary" onClick={() => open('exception:nouveau')}>
                Annuler, déplacer ou ajouter une collecte
              </button>
            </p>
            <CrudSection heading="Rues desservies" spec={streetSpec(place.id)} />
            <CrudSection heading="Lieux rattachés" spec={attachedLocationSpec(place.id)} />
            {!edit && <Preview ctx={ctx} />}
          </section>
        );
      }}
    </Loaded>
  );
}
