import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { loadCityStreets, lookupAddress, lookupPosition, type PlaceCandidate } from '../cities/lookup.ts';
import { fold } from '../kernel/address.ts';
import { errors } from '../kernel/errors.ts';
import { greatCircleMeters, type Position } from '../kernel/geo.ts';
import { requestMessages } from '../kernel/validation-messages.ts';
import { activeCitiesOfGroup, type GroupCity, type PointRow } from './repository.ts';

/**
 * Where an Open311 request is (docs/api.md, Open311): its city and collection place, found from `lat`/`long` or from
 * `address_string` with section 11's lookup (the places whose area holds the point, else attached locations within
 * 300 m; an address matched on the street rules of the group's cities), kept to the key's group.
 */

/** How far from the position the nearest recycling point may be, for a full point named by its position alone. */
const POINT_RADIUS_M = 150;

export interface Located {
  city: GroupCity;
  /** The best candidate place, or null when none was found (a type that asks none may go without). */
  placeId: string | null;
}

/** A position from the form's texts: both or neither (400 naming the missing one), each in its range. */
export function positionOf(lat: string | undefined, long: string | undefined): Position | null {
  if (lat === undefined && long === undefined) return null;
  if (lat === undefined) throw errors.invalidField('lat', requestMessages.goesWith('long'));
  if (long === undefined) throw errors.invalidField('long', requestMessages.goesWith('lat'));
  const position = { lat: Number(lat), lon: Number(long) };
  if (!(Math.abs(position.lat) <= 90)) throw errors.invalidField('lat', 'doit être une latitude entre -90 et 90');
  if (!(Math.abs(position.lon) <= 180)) throw errors.invalidField('long', 'doit être une longitude entre -180 et 180');
  return position;
}

/** The candidates of the group's cities for an address: the city the address names first, then the others in turn. */
async function addressCandidates(db: Kysely<DB>, cities: readonly GroupCity[], address: string): Promise<PlaceCandidate[]> {
  const folded = ` ${fold(address)} `;
  const named = cities.filter((c) => folded.includes(` ${fold(c.name)} `));
  const ordered = [...named, ...cities.filter((c) => !named.includes(c))];
  for (const city of ordered) {
    const streets = await loadCityStreets(db, city.id);
    const found = streets ? lookupAddress(streets, address) : [];
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * The city and place of a request. A position is looked up first, else the address. With neither, or nothing found:
 * the group's one ACTIF city when it has only one (the type's rules then say what is missing); otherwise 400
 * `locationNotFound` at the field that was given (`address_string` when none was).
 */
export async function locate(db: Kysely<DB>, groupId: string, at: Position | null, address: string | null): Promise<Located> {
  const cities = await activeCitiesOfGroup(db, groupId);
  const ofGroup = new Map(cities.map((c) => [c.id, c]));
  let candidates: PlaceCandidate[] = [];
  if (at) candidates = (await lookupPosition(db, null, at, null)).filter((c) => ofGroup.has(c.cityId));
  if (candidates.length === 0 && address) candidates = await addressCandidates(db, cities, address);
  const [best] = candidates;
  if (best) return { city: ofGroup.get(best.cityId)!, placeId: best.placeId };
  if (cities.length === 1) return { city: cities[0], placeId: null };
  throw errors.locationNotFound(at ? 'lat' : 'address_string');
}

/** The recycling point of the city nearest the position, within POINT_RADIUS_M, or null. */
export function nearestPoint(points: readonly PointRow[], cityId: string, at: Position | null): string | null {
  if (!at) return null;
  let nearest: { id: string; meters: number } | null = null;
  for (const p of points) {
    if (p.city_id !== cityId || p.latitude === null || p.longitude === null) continue;
    const meters = greatCircleMeters(at, { lat: p.latitude, lon: p.longitude });
    if (meters <= POINT_RADIUS_M && (nearest === null || meters < nearest.meters)) nearest = { id: p.id, meters };
  }
  return nearest?.id ?? null;
}
