// One commune: its data screens.
import { get } from '../api.ts';
import type { ScreenProps } from '../screens.ts';
import type { City } from '../types.ts';
import { Breadcrumbs, Loaded, Title, useResource } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';

export default function CityScreen({ params }: ScreenProps) {
  const city = useResource(params.cityId, () => get<City>(`/admin/cities/${params.cityId}`));
  const base = `/console/communes/${params.cityId}`;
  return (
    <Loaded resource={city} what="de la commune">
      {(c) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }]} />
          <Title text={c.name}>{c.name}</Title>
          <p class="muted">
            {c.status === 'ACTIF' ? 'Publiée' : 'Non publiée'} · fuseau horaire {c.timeZone}
          </p>
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
          </ul>
        </section>
      )}
    </Loaded>
  );
}
