import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, eachRow, removeRow, underPlace, type AdminStore } from '../admin/store.ts';
import { streetOverlapFaults, streetRuleFaults } from './place-rules.ts';
import { errors } from '../kernel/errors.ts';
import { streetKey } from '../kernel/address.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { findPlaceOwner, type PlaceOwner } from '../domain/cities.ts';
import * as repo from './street-repository.ts';
import type { StreetRuleRow } from './street-repository.ts';
import type { AdminStreetRule, CreateStreetRuleInput, StreetRulePatch } from './admin-schemas.ts';

/**
 * The admin API's street rules (docs/api.md, from an address to a collection place; the admin API): created under their place
 * (`/admin/places/:placeId/streets`), then read, changed and deleted at `/admin/streets/:id`; audited as `street`.
 * A write checks the rules the import bundle runs too (place-rules.ts): numbers from 1, `fromNumber <= toNumber`,
 * and no overlap with a rule of the same street on another place of the city, read from the database after locking
 * the city's street rules, so that two concurrent writes cannot both pass.
 */

export function toAdminStreetRule(row: StreetRuleRow): AdminStreetRule {
  return { id: row.id, street: row.street, fromNumber: row.from_number, toNumber: row.to_number, side: row.side, placeId: row.place_id };
}

type RuleFields = Omit<AdminStreetRule, 'id' | 'placeId'>;

/** The rule as the bundle would hold it must pass the bundle's rules, against the city's other places: 400 naming the field. */
async function ruleColumns(trx: Kysely<DB>, place: PlaceOwner, rule: RuleFields) {
  const street = rule.street.trim();
  const checked = { ...rule, street };
  const key = streetKey(street);
  assertNoFault(streetRuleFaults(checked));
  await repo.lockCityStreets(trx, place.cityId);
  const others = (await repo.otherPlacesRules(trx, place.cityId, place.placeId, key)).map((r) => ({
    rule: { street: r.street, fromNumber: r.from_number, toNumber: r.to_number, side: r.side },
    describedAs: bundleMessages.streetRuleInDatabase(r.id, r.placeName, r.placeId),
  }));
  assertNoFault(streetOverlapFaults(checked, others));
  return { street, street_key: key, from_number: rule.fromNumber, to_number: rule.toNumber, side: rule.side };
}

export const streetRuleStore: AdminStore<StreetRuleRow, AdminStreetRule, PlaceOwner, CreateStreetRuleInput, StreetRulePatch> = {
  entity: 'street',
  notFound: errors.streetRuleNotFound,
  ...underPlace(repo.findStreetRule, repo.listStreetRules, eachRow(toAdminStreetRule)),
  async insert(trx, { subject: place }, input) {
    const rule = { fromNumber: null, toNumber: null, ...input };
    return repo.insertStreetRule(trx, randomUUID(), place!.placeId, await ruleColumns(trx, place!, rule));
  },
  async update(trx, { subject }, patch) {
    const place = (await findPlaceOwner(trx, subject.row.place_id))!;
    return repo.updateStreetRule(trx, subject.row.id, await ruleColumns(trx, place, { ...subject.record, ...patch }));
  },
  remove: removeRow(repo.deleteStreetRule),
};
