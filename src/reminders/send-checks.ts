import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { readDataVersion } from '../db/data-version.ts';
import { computeCalendar, type PlaceSchedule } from '../domain/collection-calendar.ts';
import { parseCalendarDate } from '../kernel/dates.ts';
import type { ClaimedDelivery } from './ledger.ts';
import { reminderBody, type ReminderMessage } from './messages.ts';
import { noticesNow } from './notice-planner.ts';
import { loadSchedules } from './planner.ts';

/**
 * What a claimed delivery says, checked again when it is sent (docs/api.md, collections that move and service notices: reminders follow moves). A
 * reminder is planned at the subscriber's evening time and may wait (a retry, a busy evening) while an agent cancels
 * or moves the collection, or changes a holiday rule: it then names the waste types still collected that day at the
 * place, or is not sent at all when none is left (SKIPPED; the moved collection has its own reminder the evening
 * before its new day, planned then). A notice deleted or ended since it was planned is not sent either. An alert is
 * sent as planned: it says what changed, and a later change has its own.
 *
 * Schedules are read for the places of each claim that the checker does not hold yet, in one batch (four queries),
 * and kept while the data version stays the same (one read per claim): an evening's thousands of reminders to a
 * few hundred places cost a few hundred reads, not one per message.
 */

export type SendCheck = { send: true; message: ReminderMessage } | { send: false; reason: string };

export type SendChecker = (deliveries: readonly ClaimedDelivery[], now: Date) => Promise<Map<string, SendCheck>>;

export function createSendChecker(db: Kysely<DB>): SendChecker {
  let version: number | null = null;
  const schedules = new Map<string, PlaceSchedule | null>();

  const schedulesFor = async (placeIds: string[]) => {
    const current = await readDataVersion(db);
    if (current !== version) {
      schedules.clear();
      version = current;
    }
    const missing = placeIds.filter((id) => !schedules.has(id));
    if (missing.length > 0) {
      const loaded = await loadSchedules(db, missing);
      for (const id of missing) schedules.set(id, loaded.get(id) ?? null);
    }
    return schedules;
  };

  return async (deliveries, now) => {
    const checks = new Map<string, SendCheck>();
    const reminders = deliveries.filter((d) => d.kind === 'REMINDER');
    const notices = deliveries.filter((d) => d.kind === 'NOTICE');
    const known = reminders.length > 0 ? await schedulesFor([...new Set(reminders.map((d) => d.placeId))]) : schedules;
    const noticeRows = await noticesNow(db, [...new Set(notices.map((d) => noticeIdOf(d.key)))]);
    for (const delivery of deliveries) {
      if (delivery.kind === 'REMINDER') checks.set(delivery.id, reminderCheck(delivery, known.get(delivery.placeId) ?? null));
      else if (delivery.kind === 'NOTICE') checks.set(delivery.id, noticeCheck(delivery, noticeRows.get(noticeIdOf(delivery.key)), now));
      else checks.set(delivery.id, { send: true, message: delivery.message });
    }
    return checks;
  };
}

const noticeIdOf = (key: string) => key.replace(/^NOTICE-/, '');

/** The waste types the subscription asked for still collected at its place on the reminder's day (its key). */
function reminderCheck(delivery: ClaimedDelivery, schedule: PlaceSchedule | null): SendCheck {
  const day = parseCalendarDate(delivery.key);
  if (day === null) return { send: true, message: delivery.message };
  const wanted = delivery.wasteTypeIds;
  const names = schedule
    ? computeCalendar(schedule, { from: day, to: day })
        .occurrences.filter((o) => wanted.length === 0 || wanted.includes(o.wasteTypeId))
        .map((o) => o.wasteTypeName)
    : [];
  if (names.length === 0) return { send: false, reason: `nothing left to collect on ${delivery.key}: cancelled or moved since it was planned` };
  const body = reminderBody(delivery.key, names);
  return { send: true, message: body === delivery.message.body ? delivery.message : { ...delivery.message, body } };
}

function noticeCheck(delivery: ClaimedDelivery, notice: { endsAt: Date | null } | undefined, now: Date): SendCheck {
  if (!notice) return { send: false, reason: 'the notice was deleted' };
  if (notice.endsAt !== null && notice.endsAt.getTime() <= now.getTime()) return { send: false, reason: 'the notice has ended' };
  return { send: true, message: delivery.message };
}
