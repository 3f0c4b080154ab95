// A commune's collection places (sectors): the list, each with its days, and a form to add one.
import { useState } from 'preact/hooks';
import { get, getAll, messageOf, post } from '../api.ts';
import { Link, navigate } from '../router.tsx';
import type { ScreenProps } from '../screens.ts';
import type { City, Place, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Swatch, Table, TextField, Title, useResource } from '../ui.tsx';
import { dayRule } from './place-text.ts';

export default function Places({ params }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    places: await getAll<Place>(`/admin/cities/${cityId}/places`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<unknown>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    try {
      const place = await post<Place>(`/admin/cities/${cityId}/places`, { name: name.trim() });
      navigate(`/console/secteurs/${place.id}`);
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="des secteurs">
      {({ city, places, types }) => {
        const typeOf = new Map(types.map((t) => [t.id, t]));
        return (
          <section>
            <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }, { href: `/console/communes/${cityId}`, label: city.name }]} />
            <Title text={`Secteurs – ${city.name}`}>Secteurs de collecte</Title>
            <Table
              caption={`Secteurs de ${city.name}`}
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
                          {typeOf.get(d.wasteTypeId)?.name ?? '?'} : {dayRule(d, city.timeZone)}
                        </li>
                      ))}
                    </ul>
                  ),
                },
                { label: 'Exceptions', cell: (p) => p.exceptions.length },
              ]}
            />
            <form class="card" onSubmit={create} aria-labelledby="new-place">
              <h2 id="new-place">Nouveau secteur</h2>
              <TextField label="Nom du secteur" value={name} required maxLength={200} onInput={setName} />
              {problem !== null && <p class="problem" role="alert">{messageOf(problem)}</p>}
              <button type="submit" class="button" disabled={!name.trim()}>
                Créer le secteur
              </button>
            </form>
          </section>
        );
      }}
    </Loaded>
  );
}
