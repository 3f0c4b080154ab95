// « Données ouvertes »: the open-data exports of docs/api.md, recycling points and open data, for the citizen's commune, as files to download,
// and how to read a place's calendar in Home Assistant.
import { get } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { currentCityId } from '../store.ts';
import { addDays, todayInFrance } from '../text.ts';
import type { City } from '../types.ts';
import { Loading, Problem, Title, useResource } from '../ui.tsx';
import { HomeAssistant } from './home-assistant.tsx';

/** The calendar export's span: the coming year (the server refuses more than 366 days). */
const CALENDAR_DAYS = 364;

interface Export {
  href: string;
  title: string;
  format: string;
  what: string;
}

function exportsOf(city: City): Export[] {
  const today = todayInFrance();
  const list: Export[] = [
    {
      href: `/public/cities/${city.id}/recycling-points.geojson`,
      title: `Points de collecte de ${city.name}`,
      format: 'GeoJSON',
      what: 'Déchèteries et points d’apport, avec leur position, leurs horaires (format OpenStreetMap) et ce qu’ils acceptent : pour une carte ou OpenStreetMap.',
    },
    {
      href: `/public/cities/${city.id}/collections.csv?from=${today}&to=${addDays(today, CALENDAR_DAYS)}`,
      title: `Calendrier de collecte de ${city.name}`,
      format: 'CSV',
      what: 'Une ligne par collecte prévue ou annulée dans l’année qui vient, secteur par secteur : pour un tableur.',
    },
  ];
  if (city.cityGroup) {
    list.push({
      href: `/public/city-groups/${city.cityGroup.id}/equipements.csv`,
      title: `Équipements de ${city.cityGroup.name}`,
      format: 'CSV, schéma SCDL « équipements »',
      what: 'Les points de collecte de toutes les communes du groupement, au format national des équipements publics (schema.data.gouv.fr).',
    });
  }
  return list;
}

export function OpenData() {
  const cityId = currentCityId();
  const city = useResource(cityId && `city:${cityId}`, () => get<City>(`/public/cities/${cityId}`));
  return (
    <section>
      <Title text="Données ouvertes">Données ouvertes</Title>
      <p class="lead">
        Les données de collecte sont publiques et réutilisables librement : téléchargez-les, ou interrogez l’
        <a href="/docs">API publique</a>.
      </p>
      {!cityId ? (
        <div class="card">
          <p>Choisissez votre commune pour télécharger ses points de collecte et son calendrier.</p>
          <Link class="button" href="/communes">
            Choisir ma commune
          </Link>
        </div>
      ) : city.loading ? (
        <Loading what="des données" />
      ) : city.error != null || !city.data ? (
        <Problem error={city.error} retry={city.reload} />
      ) : (
        <>
          <ul class="answers" aria-label="Fichiers à télécharger">
            {exportsOf(city.data).map((e) => (
              <li key={e.href} class="card">
                <h2>
                  <a href={e.href} download>
                    {e.title}
                  </a>
                </h2>
                <p class="muted">{e.format}</p>
                <p>{e.what}</p>
              </li>
            ))}
          </ul>
          <HomeAssistant city={city.data} />
        </>
      )}
    </section>
  );
}
