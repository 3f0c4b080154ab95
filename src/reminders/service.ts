import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { iso } from '../kernel/french.ts';
import { errors } from '../kernel/errors.ts';
import { checkPushEndpoint } from './endpoint-guard.ts';
import type { ReminderKeys } from './keys.ts';
import { readLink, signLink } from '../domain/signed-links.ts';
import type { Mailer } from '../domain/mailer.ts';
import { confirmationMail } from './messages.ts';
import * as repo from './repository.ts';
import type { DeviceSubscription, SubscribeBody, Subscription } from './schemas.ts';

export interface ReminderContext {
  db: Kysely<DB>;
  config: Config;
  keys: () => Promise<ReminderKeys>;
  mailer: Mailer | null;
  log: FastifyBaseLogger;
}

/** The one mapper from a row to the API's shape. */
export function toSubscription(row: repo.SubscriptionRow): Subscription {
  return {
    id: row.id,
    deviceId: row.device_id,
    cityId: row.city_id,
    placeId: row.place_id,
    wasteTypeIds: row.waste_type_ids,
    time: row.time_of_day,
    channel: row.channel,
    status: row.status,
    createdAt: iso(row.created_at)!,
  };
}

/** `jean@exemple.fr` → `j***@exemple.fr`: enough for its owner to recognise, not enough to read. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

const toDeviceSubscription = (row: repo.SubscriptionRow): DeviceSubscription => ({
  ...toSubscription(row),
  email: row.email === null ? null : maskEmail(row.email),
});

/** Links start with PUBLIC_BASE_URL, else the origin the subscription was made from. */
/** What a reminder's e-mail links do: confirm a pending subscription, or unsubscribe (RFC 8058 one-click). */
export type LinkPurpose = 'confirm' | 'unsubscribe';

/** A confirmation link works as long as an unconfirmed subscription is kept. */
export const CONFIRM_LINK_DAYS = 7;

export function linkUrl(config: Config, origin: string, purpose: LinkPurpose, token: string): string {
  return `${config.publicBaseUrl ?? origin}/public/reminders/${purpose}?token=${encodeURIComponent(token)}`;
}

/** A base64url value of `bytes` bytes (padding tolerated), else 400 naming the field. */
function pushKey(value: string, field: string, bytes: number): string {
  const bare = value.replace(/=+$/, '');
  if (Buffer.from(bare, 'base64url').length !== bytes) throw errors.reminderPushKey(field, bytes);
  return bare;
}

/**
 * Creates or updates a subscription (docs/api.md, reminders). An e-mail subscription starts PENDING and is sent the
 * confirmation link; nothing else is ever sent to it before that link is opened. An address is no secret: a device
 * only ever updates its own subscription of an address (200); asked for by another device, the address gets a new
 * PENDING subscription (201, whatever the address has elsewhere), which replaces the address's subscription at the
 * place only when the link sent to the address is followed (repository.ts, confirmSubscription).
 */
export async function subscribe(
  ctx: ReminderContext,
  body: SubscribeBody,
  origin: string,
  now: Date,
): Promise<{ subscription: Subscription; created: boolean }> {
  const { city, place, wasteTypeIds } = await repo.findCityAndPlace(ctx.db, body.cityId, body.placeId);
  if (!city) throw errors.cityNotFound();
  if (!place) throw errors.collectionPlaceNotFound();
  const asked = [...new Set(body.wasteTypeIds ?? [])];
  if (!asked.every((id) => wasteTypeIds.has(id.toLowerCase()))) throw errors.reminderWasteTypes();

  let push: { endpoint: string; p256dh: string; auth: string } | null = null;
  let email: string | null = null;
  if (body.channel === 'WEB_PUSH') {
    if (!body.webPush) throw errors.reminderWebPushMissing();
    push = {
      endpoint: body.webPush.endpoint,
      p256dh: pushKey(body.webPush.keys.p256dh, 'webPush.keys.p256dh', 65),
      auth: pushKey(body.webPush.keys.auth, 'webPush.keys.auth', 16),
    };
    await checkPushEndpoint(push.endpoint, ctx.config.webPushAllowInsecureEndpoints);
  } else {
    if (!body.email) throw errors.reminderEmailMissing();
    if (!ctx.mailer) throw errors.reminderEmailDisabled();
    email = body.email.trim().toLowerCase();
  }

  const { row, created } = await repo.upsertSubscription(ctx.db, {
    id: randomUUID(),
    deviceId: body.deviceId,
    cityId: city.id,
    placeId: place.id,
    wasteTypeIds: asked.map((id) => id.toLowerCase()),
    time: body.time ?? '19:00',
    channel: body.channel,
    push,
    email,
    status: body.channel === 'EMAIL' ? 'PENDING' : 'ACTIVE',
    origin,
    now,
  });
  if (row.status === 'PENDING' && row.email) {
    const replaces = await repo.addressSubscribedElsewhere(ctx.db, row.place_id, row.email, row.device_id);
    await sendConfirmation(ctx, row, { placeName: place.name, cityName: city.name, replaces }, now);
  }
  return { subscription: toSubscription(row), created };
}

/** The confirmation e-mail; `replaces`: the address already has another device's subscription at the place, and the mailbox is told. */
async function sendConfirmation(
  ctx: ReminderContext,
  row: repo.SubscriptionRow,
  names: { placeName: string; cityName: string; replaces: boolean },
  now: Date,
) {
  const { linkKey } = await ctx.keys();
  const unsubscribeUrl = linkUrl(ctx.config, row.origin, 'unsubscribe', signLink(linkKey, row.id, 'unsubscribe', now));
  const content = confirmationMail({
    ...names,
    time: row.time_of_day,
    confirmUrl: linkUrl(ctx.config, row.origin, 'confirm', signLink(linkKey, row.id, 'confirm', now, CONFIRM_LINK_DAYS)),
    unsubscribeUrl,
  });
  try {
    await ctx.mailer!.send({ ...content, to: row.email!, unsubscribeUrl });
  } catch (err) {
    ctx.log.warn({ err }, 'reminders: the confirmation e-mail could not be sent');
    throw errors.reminderMailFailed();
  }
}

export async function listForDevice(db: Kysely<DB>, deviceId: string): Promise<DeviceSubscription[]> {
  return (await repo.listDeviceSubscriptions(db, deviceId)).map(toDeviceSubscription);
}

export async function unsubscribeDevice(db: Kysely<DB>, id: string, deviceId: string): Promise<void> {
  if (!(await repo.deleteSubscription(db, id.toLowerCase(), deviceId))) throw errors.reminderSubscriptionNotFound();
}

/** GET /confirm: activates the subscription the link names; 404 for a bad or expired link, or a subscription gone. */
export async function confirmLink(ctx: ReminderContext, token: string, now: Date): Promise<'ACTIVE'> {
  const id = readLink((await ctx.keys()).linkKey, token, 'confirm', now);
  const row = id && (await repo.confirmSubscription(ctx.db, id, now));
  if (!row) throw errors.reminderLinkNotFound();
  return 'ACTIVE';
}

/** The subscription an unsubscribe link names; 404 for a bad link. A subscription already gone is no error. */
export async function checkUnsubscribeLink(ctx: ReminderContext, token: string, now: Date): Promise<string> {
  const id = readLink((await ctx.keys()).linkKey, token, 'unsubscribe', now);
  if (!id) throw errors.reminderLinkNotFound();
  return id;
}

/** POST /unsubscribe (RFC 8058 one-click): deletes the subscription the link names. */
export async function unsubscribeLink(ctx: ReminderContext, token: string, now: Date): Promise<'DELETED'> {
  await repo.deleteSubscription(ctx.db, await checkUnsubscribeLink(ctx, token, now));
  return 'DELETED';
}

export async function subscriptionExists(db: Kysely<DB>, id: string): Promise<boolean> {
  return (await repo.findSubscription(db, id)) !== undefined;
}
