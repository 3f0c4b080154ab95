// How to reach the city group's service: telephone, e-mail, hours, address (the group's contact block).
import { get } from './api.ts';
import type { CityGroup } from './types.ts';

/** The group a commune belongs to, from the small city-groups listing (remembered for the session). */
export async function groupOfCity(cityId: string): Promise<CityGroup | null> {
  const groups = await get<CityGroup[]>('/public/city-groups');
  return groups.find((g) => g.cities.some((c) => c.id === cityId)) ?? null;
}

const hasContact = (g: CityGroup) => Boolean(g.contactPhone || g.contactEmail || g.contactHours || g.contactAddress);

export function ContactBlock({ group }: { group: CityGroup | null }) {
  if (!group || !hasContact(group)) return null;
  return (
    <section class="card contact" aria-labelledby="contact-title">
      <h2 id="contact-title">Contacter le service déchets</h2>
      <p class="muted">{group.name}</p>
      <dl>
        {group.contactPhone && (
          <>
            <dt>Téléphone</dt>
            <dd>
              <a href={`tel:${group.contactPhone.replace(/[^+0-9]/g, '')}`}>{group.contactPhone}</a>
            </dd>
          </>
        )}
        {group.contactEmail && (
          <>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${group.contactEmail}`}>{group.contactEmail}</a>
            </dd>
          </>
        )}
        {group.contactHours && (
          <>
            <dt>Horaires</dt>
            <dd>{group.contactHours}</dd>
          </>
        )}
        {group.contactAddress && (
          <>
            <dt>Adresse</dt>
            <dd class="address">{group.contactAddress}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
