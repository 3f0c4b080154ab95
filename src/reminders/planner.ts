import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { computeCalendar, type PlaceSchedule } from '../domain/collection-calendar.ts';
import { loadSchedules as loadPlaceSchedules } from '../domain/schedules.ts';
import { dayNumberFromParts, formatDayNumber, resolveTimeZone, startOfDayIn, wallClockParts } from '../kernel/dates.ts';
import { calendarUrl, reminderMessage } from './messages.ts';
import { deleteUnconfirmed, subscribedTimeZones } from './repository.ts';

/**
 * The evening's planning: for every ACTIVE subscription whose time has come today in its city's time zone and
 * whose tomorrow it has not yet looked at, one delivery row per subscription when something it asked for is
 * collected tomorrow (exceptions and holidays applied by the calendar engine), none otherwise. Subscriptions are
 * read in batches, each batch in one short transaction that locks its rows (FOR UPDATE SKIP LOCKED, so two
 * instances share the work), inserts the deliveries (the unique key makes a second insert a no-op) and records
 * the day as planned. Never more than one batch in memory.
 */

export interface PlanOptions {
  now: Date;
  batchSize: number;
  /** PUBLIC_BASE_URL, else each subscription's own origin. */
  publicBaseUrl: string | null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Answers how many deliveries were created. */
export async function planReminders(db: Kysely<DB>, options: PlanOptions): Promise<number> {
  const zones = await subscribedTimeZones(db);
  let planned = 0;
  for (const { time_zone: storedZone } of zones) {
    const zone = resolveTimeZone(storedZone);
    const [year, month, day, hour, minute] = wallClockParts(options.now, zone);
    const tomorrow = dayNumberFromParts(year, month, day) + 1;
    const due = { storedZone, zone, time: `${pad(hour)}:${pad(minute)}`, tomorrow };
    // Batches follow each other by id (each starts after the last id of the one before), so that a batch never
    // walks again over the subscriptions already planned: linear in the subscriptions, not quadratic. A row another
    // instance held locked (SKIP LOCKED) and then let go unplanned is planned by the next tick.
    let after: string | null = null;
    for (;;) {
      const batch = await planBatch(db, due, options, after);
      if (batch === null) break;
      planned += batch.created;
      after = batch.lastId;
    }
  }
  return planned;
}

interface DueWindow {
  storedZone: string;
  zone: string;
  /** Local time now, HH:MM. */
  time: string;
  tomorrow: number;
}

/** Plans one batch of subscriptions with ids above `after`; null when none was left to plan. */
async function planBatch(db: Kysely<DB>, due: DueWindow, options: PlanOptions, after: string | null): Promise<{ created: number; lastId: string } | null> {
  const tomorrowText = formatDayNumber(due.tomorrow);
  return db.transaction().execute(async (trx) => {
    const subscriptions = await trx
      .selectFrom('reminder_subscription as s')
      .innerJoin('city as c', 'c.id', 's.city_id')
      .innerJoin('collection_place as p', 'p.id', 's.place_id')
      .select(['s.id', 's.city_id', 's.place_id', 's.waste_type_ids', 's.origin', 'p.name as place_name'])
      .where('c.time_zone', '=', due.storedZone)
      .where('c.status', '=', 'ACTIF')
      .where('s.status', '=', 'ACTIVE')
      .where('s.time_of_day', '<=', due.time)
      .where((eb) => eb.or([eb('s.planned_day', 'is', null), eb('s.planned_day', '<', tomorrowText)]))
      .$if(after !== null, (qb) => qb.where('s.id', '>', after!))
      .orderBy('s.id')
      .limit(options.batchSize)
      .forUpdate('s')
      .skipLocked()
      .execute();
    if (subscriptions.length === 0) return null;

    const schedules = await loadSchedules(trx, [...new Set(subscriptions.map((s) => s.place_id))]);
    const expiresAt = startOfDayIn(due.tomorrow, due.zone);
    const range = { from: due.tomorrow, to: due.tomorrow };
    const collectedAt = new Map<string, { id: string; name: string }[]>();
    const deliveries = [];
    for (const subscription of subscriptions) {
      let collected = collectedAt.get(subscription.place_id);
      if (!collected) {
        const schedule = schedules.get(subscription.place_id);
        collected = schedule ? computeCalendar(schedule, range).occurrences.map((o) => ({ id: o.wasteTypeId, name: o.wasteTypeName })) : [];
        collectedAt.set(subscription.place_id, collected);
      }
      const wanted = subscription.waste_type_ids;
      const names = collected.filter((w) => wanted.length === 0 || wanted.includes(w.id)).map((w) => w.name);
      if (names.length === 0) continue;
      const message = reminderMessage({
        dayText: tomorrowText,
        wasteTypeNames: names,
        placeId: subscription.place_id,
        placeName: subscription.place_name,
        calendarUrl: calendarUrl(options.publicBaseUrl ?? subscription.origin, subscription.city_id, subscription.place_id),
      });
      deliveries.push({
        subscription_id: subscription.id,
        kind: 'REMINDER' as const,
        key: tomorrowText,
        status: 'PENDING' as const,
        message: JSON.stringify(message),
        expires_at: expiresAt,
        run_after: options.now,
        created_at: options.now,
      });
    }
    let created = 0;
    if (deliveries.length > 0) {
      const result = await trx
        .insertInto('reminder_delivery')
        .values(deliveries)
        .onConflict((oc) => oc.columns(['subscription_id', 'kind', 'key']).doNothing())
        .executeTakeFirst();
      created = Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    await trx
      .updateTable('reminder_subscription')
      .set({ planned_day: tomorrowText })
      .where(
        'id',
        'in',
        subscriptions.map((s) => s.id),
      )
      .execute();
    return { created, lastId: subscriptions[subscriptions.length - 1].id };
  });
}

/** What the calendar engine needs for each place of a batch (src/domain/schedules.ts), by place id. */
export async function loadSchedules(db: Kysely<DB>, placeIds: string[]): Promise<Map<string, PlaceSchedule>> {
  return new Map((await loadPlaceSchedules(db, { placeIds })).map((place) => [place.id, place.schedule]));
}

/** Deletes what is no longer needed: unconfirmed subscriptions after 7 days, ledger rows after 30. */
export async function cleanUp(db: Kysely<DB>, now: Date): Promise<void> {
  const day = 86_400_000;
  await deleteUnconfirmed(db, new Date(now.getTime() - 7 * day));
  await db
    .deleteFrom('reminder_delivery')
    .where('created_at', '<', new Date(now.getTime() - 30 * day))
    .where('status', 'in', ['SENT', 'FAILED', 'SKIPPED'])
    .execute();
}
