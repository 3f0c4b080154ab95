// « Déclaration d'accessibilité » and « Données personnelles » (web/shared/legal.tsx), linked from every footer: the
// way to reach the service is the contact of the commune's group when the device has a commune, and the assistant.
import { useEffect, useState } from 'preact/hooks';
import { Link } from '../../shared/router.tsx';
import { AccessibilityStatement, PersonalData } from '../../shared/legal.tsx';
import { ContactBlock, groupOfCity } from '../contact.tsx';
import { currentCityId } from '../store.ts';
import type { CityGroup } from '../types.ts';
import { Title } from '../ui.tsx';

function ServiceContact() {
  const [group, setGroup] = useState<CityGroup | null>(null);
  useEffect(() => {
    const cityId = currentCityId();
    if (cityId) groupOfCity(cityId).then(setGroup, () => setGroup(null));
  }, []);
  return (
    <>
      {group ? (
        <ContactBlock group={group} />
      ) : (
        <p>
          Écrivez au service déchets de votre collectivité : ses coordonnées s’affichent ici une fois{' '}
          <Link href="/communes">votre commune choisie</Link>.
        </p>
      )}
      <p>
        Vous pouvez aussi écrire à l’<Link href="/assistant">assistant</Link> et demander à parler à un agent, là où votre
        collectivité le propose.
      </p>
    </>
  );
}

export function AccessibilityScreen() {
  return (
    <section>
      <Title text="Déclaration d’accessibilité">Déclaration d’accessibilité</Title>
      <AccessibilityStatement contact={<ServiceContact />} />
    </section>
  );
}

export function PersonalDataScreen() {
  return (
    <section>
      <Title text="Données personnelles">Données personnelles</Title>
      <PersonalData contact={<ServiceContact />} />
    </section>
  );
}
