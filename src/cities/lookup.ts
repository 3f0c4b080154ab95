import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { parseAddress } from '../kernel/address.ts';
import { addressIndex, matchAddress, type AddressIndex } from '../domain/address-match.ts';
import { findActiveCity } from '../domain/cities.ts';
import { compareFrench } from '../kernel/french.ts';
import { areaContains, boxAround, greatCircleMeters, type Position } from '../kernel/geo.ts';
import { areaIndex, type AreaIndex } from './area-index.ts';
import {
  findActiveAreas,
  findLocationsInBox,
  findLocationsOfCity,
  findPlacesWithAreaBoxAt,
  findStreetRulesOfCity,
  type LocationRow,
  type LookupPlaceRow,
  type StreetRuleRow,
} from './lookup-repository.ts';

/**
 * From an address or a position to collection places (docs/api.md, from an address to a collection place, GET /public/places/lookup).
 *
 * An address is matched by the domain's matcher (domain/address-match.ts, which says why in code and how) on the
 * city's own street rules and attached-location names, read by one indexed query each. A position is matched through
 * the GiST index of the places' area boxes, then the polygon in code (kernel/geo.ts); failing an area, the attached
 * locations within 300 m.
 */

export type MatchedBy = 'street' | 'area' | 'location';

export interface PlaceCandidate {
  cityId: string;
  cityName: string;
  placeId: string;
  placeName: string;
  matchedBy: MatchedBy;
  label: string;
  distanceMeters: number | null;
}

/** Most candidates answered (docs/api.md, from an address to a collection place). */
export const LOOKUP_LIMIT = 10;

/** How far from a position an attached location may be (docs/api.md, from an address to a collection place). */
export const LOCATION_RADIUS_M = 300;

const NBSP = '\u00a0';

function candidate(place: LookupPlaceRow, matchedBy: MatchedBy, label: string, distanceMeters: number | null = null): PlaceCandidate {
  return {
    cityId: place.city_id,
    cityName: place.city_name,
    placeId: place.place_id,
    placeName: place.place_name,
    matchedBy,
    label,
    distanceMeters,
  };
}

/** A city's street index (domain/address-match.ts), built once per city and data version by the route's cache. */
export interface CityStreets {
  city: { id: string; name: string };
  index: AddressIndex<LookupPlaceRow>;
}

/** A city's street index from its rule and location rows. */
export function cityStreets(city: { id: string; name: string }, rules: readonly StreetRuleRow[], locations: readonly LocationRow[]): CityStreets {
  const index = addressIndex<LookupPlaceRow>(
    rules.map((row) => ({
      place: row,
      placeId: row.place_id,
      placeName: row.place_name,
      street: row.street,
      streetKey: row.street_key,
      fromNumber: row.from_number,
      toNumber: row.to_number,
      side: row.side,
    })),
    locations.map((row) => ({ place: row, placeId: row.place_id, placeName: row.place_name, name: row.name })),
  );
  return { city, index };
}

/** Reads an ACTIF city's street rules and attached locations into its index; null for an unknown or NON_ACTIF city. */
export async function loadCityStreets(db: Kysely<DB>, cityId: string): Promise<CityStreets | null> {
  const city = await findActiveCity(db, cityId);
  if (!city) return null;
  const [rules, locations] = await Promise.all([findStreetRulesOfCity(db, city.id), findLocationsOfCity(db, city.id)]);
  return cityStreets({ id: city.id, name: city.name }, rules, locations);
}

/** One candidate with its rank (domain/address-match.ts): what the search across communes merges. */
export interface RankedCandidate {
  candidate: PlaceCandidate;
  tier: number;
  distance: number;
}

/** Candidates for a free-text address in one city, best first, with their ranks (at most LOOKUP_LIMIT). */
export function rankedAddressCandidates({ city, index }: CityStreets, text: string): RankedCandidate[] {
  const parsed = parseAddress(text, { communeNames: [city.name] });
  return matchAddress(parsed, index, { prefixes: true })
    .slice(0, LOOKUP_LIMIT)
    .map((match) => ({ candidate: candidate(match.place, match.matchedBy, match.label), tier: match.tier, distance: match.distance }));
}

/** Candidates for a free-text address in one city, best first (at most LOOKUP_LIMIT). */
export function lookupAddress(streets: CityStreets, text: string): PlaceCandidate[] {
  return rankedAddressCandidates(streets, text).map((ranked) => ranked.candidate);
}

/** Reads every ACTIF place's area into the in-memory index (area-index.ts). */
export async function loadAreaIndex(db: Kysely<DB>): Promise<AreaIndex<LookupPlaceRow>> {
  const rows = await findActiveAreas(db);
  return areaIndex(
    rows.map((row) => ({
      row: { city_id: row.city_id, city_name: row.city_name, place_id: row.place_id, place_name: row.place_name },
      cityId: row.city_id,
      area: row.area,
      minLat: row.min_lat,
      maxLat: row.max_lat,
      minLon: row.min_lon,
      maxLon: row.max_lon,
    })),
  );
}

/**
 * The area index of the current data version, when it is built: `current()` answers it, or null while the index of a
 * new version is being read (started by that call), so that a lookup never waits for a rebuild (the GiST query
 * answers it meanwhile, from the same data). A failed build is tried again by the next call.
 */
export function areaIndexPerVersion(load: () => Promise<AreaIndex<LookupPlaceRow>>, version: () => number) {
  let ready: { version: number; index: AreaIndex<LookupPlaceRow> } | null = null;
  let building: number | null = null;
  return {
    current(): AreaIndex<LookupPlaceRow> | null {
      const wanted = version();
      if (ready?.version === wanted) return ready.index;
      if (building !== wanted) {
        building = wanted;
        load().then(
          (index) => {
            if (ready === null || ready.version < wanted) ready = { version: wanted, index };
            if (building === wanted) building = null;
          },
          () => {
            if (building === wanted) building = null;
          },
        );
      }
      return null;
    },
  };
}

/**
 * Candidates for a position: the places whose area holds it (by city, then place name), else the attached locations
 * within LOCATION_RADIUS_M, nearest first, one per place. `cityId` null: every ACTIF city. `areas`: the in-memory
 * index of the current data version, or null to ask the GiST index (the same answer).
 */
export async function lookupPosition(
  db: Kysely<DB>,
  areas: AreaIndex<LookupPlaceRow> | null,
  at: Position,
  cityId: string | null,
): Promise<PlaceCandidate[]> {
  const holding = areas ? areas.at(at, cityId) : (await findPlacesWithAreaBoxAt(db, at, cityId)).filter((row) => areaContains(row.area, at));
  const inArea = holding
    .sort((a, b) => compareFrench(a.city_name, b.city_name) || compareFrench(a.place_name, b.place_name))
    .slice(0, LOOKUP_LIMIT);
  if (inArea.length > 0) return inArea.map((row) => candidate(row, 'area', `Zone de collecte «${NBSP}${row.place_name}${NBSP}»`));

  const near = (await findLocationsInBox(db, boxAround(at, LOCATION_RADIUS_M), cityId))
    .map((row) => ({ row, meters: greatCircleMeters(at, { lat: row.latitude, lon: row.longitude }) }))
    .filter(({ meters }) => meters <= LOCATION_RADIUS_M)
    .sort((a, b) => a.meters - b.meters || compareFrench(a.row.name, b.row.name));
  const seen = new Set<string>();
  const answer: PlaceCandidate[] = [];
  for (const { row, meters } of near) {
    if (seen.has(row.place_id)) continue;
    seen.add(row.place_id);
    answer.push(candidate(row, 'location', row.name, meters));
    if (answer.length === LOOKUP_LIMIT) break;
  }
  return answer;
}
