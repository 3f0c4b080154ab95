// Recycling points of the city: address, opening hours, a map link.
import { get } from '../api.ts';
import { currentCityId } from '../store.ts';
import type { City } from '../types.ts';
import { Loading, NeedCity, Problem, Title, useResource } from '../ui.tsx';

export function RecyclingPoints() {
  const cityId = currentCityId();
  const city = useResource(cityId && `city:${cityId}`, () => get<City>(`/public/cities/${cityId}`));
  return (
    <section>
      <Title text="Déchèteries et points d'apport">Déchèteries et points d'apport</Title>
      {!cityId ? (
        <NeedCity what="les déchèteries proches de chez vous" />
      ) : city.loading ? (
        <Loading what="des déchèteries" />
      ) : city.error != null || !city.data ? (
        <Problem error={city.error} retry={city.reload} />
      ) : city.data.recyclingPoints.length === 0 ? (
        <p class="card">Aucun point d'apport n'est publié pour {city.data.name}.</p>
      ) : (
        <>
          <p class="lead">À {city.data.name} et aux alentours.</p>
          <ul class="points">
            {city.data.recyclingPoints.map((p) => (
              <li key={p.id} class="card">
                <h2>{p.name}</h2>
                {p.address && <p class="address">{p.address}</p>}
                {p.openingHours && (
                  <p>
                    <strong>Horaires : </strong>
                    {p.openingHours}
                  </p>
                )}
                {p.latitude !== null && p.longitude !== null && (
                  <p>
                    <a href={`https://www.openstreetmap.org/?mlat=${p.latitude}&mlon=${p.longitude}#map=17/${p.latitude}/${p.longitude}`} rel="noopener">
                      Voir sur la carte<span class="visually-hidden"> : {p.name}</span>
                    </a>
                  </p>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
