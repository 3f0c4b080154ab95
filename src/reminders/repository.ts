import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, ReminderChannel, ReminderStatus, ReminderSubscriptionTable } from '../db/types.ts';

export type SubscriptionRow = Selectable<ReminderSubscriptionTable>;

/** The ACTIF city with the place (null place when it is not one of the city's) and the city's waste type ids. */
export async function findCityAndPlace(
  db: Kysely<DB>,
  cityId: string,
  placeId: string,
): Promise<{ city: { id: string; name: string } | undefined; place: { id: string; name: string } | undefined; wasteTypeIds: Set<string> }> {
  const [city, place, wasteTypes] = await Promise.all([
    db.selectFrom('city').select(['id', 'name']).where('id', '=', cityId).where('status', '=', 'ACTIF').executeTakeFirst(),
    db.selectFrom('collection_place').select(['id', 'name']).where('id', '=', placeId).where('city_id', '=', cityId).executeTakeFirst(),
    db.selectFrom('waste_type').select('id').where('city_id', '=', cityId).execute(),
  ]);
  return { city, place, wasteTypeIds: new Set(wasteTypes.map((w) => w.id)) };
}

export interface SubscriptionValues {
  id: string;
  deviceId: string;
  cityId: string;
  placeId: string;
  wasteTypeIds: string[];
  time: string;
  channel: ReminderChannel;
  push: { endpoint: string; p256dh: string; auth: string } | null;
  email: string | null;
  /** Status of a new subscription (PENDING for an e-mail); an existing one keeps its own. */
  status: ReminderStatus;
  origin: string;
  now: Date;
}

/**
 * Creates the subscription, or updates the one with the same endpoint at the same place, or, for an e-mail, the one
 * of the same device with the same address at the same place (one statement, safe against two requests at once).
 * `created` tells which. An updated subscription is planned afresh. Another device's subscription of the same
 * address is never touched: the new one stays beside it, PENDING, until its confirmation (confirmSubscription).
 */
export async function upsertSubscription(db: Kysely<DB>, v: SubscriptionValues): Promise<{ row: SubscriptionRow; created: boolean }> {
  const changes = {
    device_id: v.deviceId,
    city_id: v.cityId,
    waste_type_ids: JSON.stringify(v.wasteTypeIds),
    time_of_day: v.time,
    p256dh: v.push?.p256dh ?? null,
    auth: v.push?.auth ?? null,
    origin: v.origin,
    planned_day: null,
    updated_at: v.now,
  };
  const row = await db
    .insertInto('reminder_subscription')
    .values({
      id: v.id,
      place_id: v.placeId,
      channel: v.channel,
      endpoint: v.push?.endpoint ?? null,
      email: v.email,
      status: v.status,
      created_at: v.now,
      ...changes,
    })
    .onConflict((oc) =>
      v.push
        ? oc.columns(['place_id', 'endpoint']).where('endpoint', 'is not', null).doUpdateSet(changes)
        : oc.columns(['place_id', 'email', 'device_id']).where('email', 'is not', null).doUpdateSet(changes),
    )
    .returningAll()
    // xmax is 0 on a row this statement inserted, the updating transaction's id on one it updated.
    .returning(sql<boolean>`(xmax = 0)`.as('created'))
    .executeTakeFirstOrThrow();
  const { created, ...subscription } = row;
  return { row: subscription, created };
}

export async function findSubscription(db: Kysely<DB>, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('reminder_subscription').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A device's subscriptions, oldest first. */
export async function listDeviceSubscriptions(db: Kysely<DB>, deviceId: string): Promise<SubscriptionRow[]> {
  return db.selectFrom('reminder_subscription').selectAll().where('device_id', '=', deviceId).orderBy('created_at').orderBy('id').execute();
}

/** Deletes a subscription (and its ledger rows); with `deviceId`, only when that device owns it. True when one was deleted. */
export async function deleteSubscription(db: Kysely<DB>, id: string, deviceId?: string): Promise<boolean> {
  const result = await db
    .deleteFrom('reminder_subscription')
    .where('id', '=', id)
    .$if(deviceId !== undefined, (qb) => qb.where('device_id', '=', deviceId!))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether another device has the address's subscription at the place, confirmed: confirming this one replaces it. */
export async function addressSubscribedElsewhere(db: Kysely<DB>, placeId: string, email: string, deviceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('reminder_subscription')
    .select('id')
    .where('place_id', '=', placeId)
    .where('email', '=', email)
    .where('device_id', '<>', deviceId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Activates a pending subscription; answers it as it now is, or undefined when it no longer exists. The address's
 * mailbox has chosen this one: the address's other subscriptions at the place (another device's, confirmed or not)
 * are deleted, and the ledger rows of the confirmed one become this one's, so that a message already sent (or due)
 * to the address is not made a second time. The place's rows of the address are locked in id order first: two
 * links followed at once take turns, and the second finds its subscription gone.
 */
export async function confirmSubscription(db: Kysely<DB>, id: string, now: Date): Promise<SubscriptionRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const found = await findSubscription(trx, id);
    if (!found || found.status === 'ACTIVE') return found;
    if (found.email !== null) {
      const mailbox = await trx
        .selectFrom('reminder_subscription')
        .select(['id', 'status'])
        .where('place_id', '=', found.place_id)
        .where('email', '=', found.email)
        .orderBy('id')
        .forUpdate()
        .execute();
      const self = mailbox.find((row) => row.id === id);
      if (!self || self.status === 'ACTIVE') return findSubscription(trx, id);
      const replaced = mailbox.filter((row) => row.id !== id).map((row) => row.id);
      if (replaced.length > 0) {
        // A PENDING subscription never had ledger rows (only ACTIVE ones are planned): no key can collide.
        await trx.updateTable('reminder_delivery').set({ subscription_id: id }).where('subscription_id', 'in', replaced).execute();
        await trx.deleteFrom('reminder_subscription').where('id', 'in', replaced).execute();
      }
    }
    await trx.updateTable('reminder_subscription').set({ status: 'ACTIVE', planned_day: null, updated_at: now }).where('id', '=', id).execute();
    return findSubscription(trx, id);
  });
}

/** Deletes the e-mail subscriptions left unconfirmed since before `cutoff`; answers how many. */
export async function deleteUnconfirmed(db: Kysely<DB>, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom('reminder_subscription').where('status', '=', 'PENDING').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The names the messages give: the place's and its city's. */
export async function placeNames(db: Kysely<DB>, placeId: string): Promise<{ placeName: string; cityName: string } | undefined> {
  return db
    .selectFrom('collection_place as p')
    .innerJoin('city as c', 'c.id', 'p.city_id')
    .select(['p.name as placeName', 'c.name as cityName'])
    .where('p.id', '=', placeId)
    .executeTakeFirst();
}

/** The time zones (as stored) of the cities that have an active subscription: the planners work zone by zone. */
export async function subscribedTimeZones(db: Kysely<DB>): Promise<{ time_zone: string }[]> {
  return db
    .selectFrom('reminder_subscription as s')
    .innerJoin('city as c', 'c.id', 's.city_id')
    .select('c.time_zone')
    .distinct()
    .where('s.status', '=', 'ACTIVE')
    .execute();
}
