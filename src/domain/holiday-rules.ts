import type { Kysely, Selectable } from 'kysely';
import type { DB, HolidayRuleTable } from '../db/types.ts';
import type { HolidayRule } from './collection-calendar.ts';

/**
 * A city group's holiday rules (docs/api.md, collections that move and service notices) as the admin API and the import bundle hold them: a list in
 * order, stored one row per rule with its position. The calendar engine reads them through schedules.ts.
 */

export type HolidayRuleRow = Selectable<HolidayRuleTable>;

export const toHolidayRule = (row: Pick<HolidayRuleRow, 'holiday' | 'waste_type_id' | 'action'>): HolidayRule => ({
  holiday: row.holiday,
  wasteTypeId: row.waste_type_id,
  action: row.action,
});

/** The rows of a group's list, positions from 0 in the list's order. */
export const holidayRuleRows = (groupId: string, rules: readonly HolidayRule[]) =>
  rules.map((rule, position) => ({
    city_group_id: groupId,
    position,
    holiday: rule.holiday,
    waste_type_id: rule.wasteTypeId?.toLowerCase() ?? null,
    action: rule.action,
  }));

/** The rules of each of `groupIds`, in order (a group without rules has none in the map). */
export async function holidayRulesOf(db: Kysely<DB>, groupIds: readonly string[]): Promise<Map<string, HolidayRule[]>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('holiday_rule')
    .select(['city_group_id', 'holiday', 'waste_type_id', 'action'])
    .where('city_group_id', 'in', groupIds)
    .orderBy('city_group_id')
    .orderBy('position')
    .execute();
  const byGroup = new Map<string, HolidayRule[]>();
  for (const row of rows) {
    let list = byGroup.get(row.city_group_id);
    if (!list) byGroup.set(row.city_group_id, (list = []));
    list.push(toHolidayRule(row));
  }
  return byGroup;
}

/** Makes `rules` the group's whole list. */
export async function replaceHolidayRules(db: Kysely<DB>, groupId: string, rules: readonly HolidayRule[]): Promise<void> {
  await db.deleteFrom('holiday_rule').where('city_group_id', '=', groupId).execute();
  if (rules.length > 0) await db.insertInto('holiday_rule').values(holidayRuleRows(groupId, rules)).execute();
}

/** The ids of the waste types of the group's cities: what its rules may name. */
export async function groupWasteTypeIds(db: Kysely<DB>, groupId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('waste_type')
    .innerJoin('city', 'city.id', 'waste_type.city_id')
    .select('waste_type.id')
    .where('city.city_group_id', '=', groupId)
    .execute();
  return new Set(rows.map((r) => r.id));
}
