import { sortByText } from '../kernel/french.ts';
import { toGroupContact } from '../domain/group-contact.ts';
import type { CityGroupRows } from './repository.ts';
import type { CityGroupApi } from './schemas.ts';

/** City groups by name, each with its ACTIF cities by name. (The published city's mapper is the domain's.) */
export function toCityGroups({ groups, cities }: CityGroupRows): CityGroupApi[] {
  const citiesByGroup = Map.groupBy(cities, (c) => c.city_group_id);
  return sortByText(groups, (g) => g.name).map((g) => {
    const members = sortByText(citiesByGroup.get(g.id) ?? [], (c) => c.name).map((c) => ({
      id: c.id,
      name: c.name,
      country: c.country,
      population: c.population,
    }));
    return { id: g.id, name: g.name, type: g.type, code: g.code, siren: g.siren, ...toGroupContact(g), cities: members, _count: { cities: members.length } };
  });
}
