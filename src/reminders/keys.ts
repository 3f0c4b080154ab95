import { generateKeyPairSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { loadLinkKey, sharedSetting } from '../domain/signed-links.ts';

/** What signs push requests and e-mail links, the same on every instance. */
export interface ReminderKeys {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** HMAC key of the confirmation and unsubscribe links. */
  linkKey: Buffer;
}

/**
 * A new VAPID pair in web-push's form (`generateVAPIDKeys`), made by Node's own crypto so that an instance that has
 * yet to send a push does not load web-push: the P-256 public point uncompressed (0x04, x, y: 65 bytes) and the
 * private scalar (32 bytes), base64url. A JWK's coordinates and scalar always have their full length, leading zeros
 * included.
 */
export function newVapidKeys(): { publicKey: string; privateKey: string } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d! };
}

/**
 * The VAPID pair from the configuration, else the one kept in the database (generated at the first need), and the
 * link-signing key. The subject defaults to the public origin (push services want a way to reach the sender).
 */
export async function loadReminderKeys(db: Kysely<DB>, config: Config): Promise<ReminderKeys> {
  let vapid: { publicKey: string; privateKey: string };
  if (config.vapidPublicKey && config.vapidPrivateKey) {
    vapid = { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  } else {
    vapid = JSON.parse(await sharedSetting(db, 'vapid', () => JSON.stringify(newVapidKeys()))) as typeof vapid;
  }
  const linkKey = await loadLinkKey(db);
  const subject = config.vapidSubject ?? (config.publicBaseUrl?.startsWith('https:') ? config.publicBaseUrl : 'mailto:rappels@collecte.invalid');
  return { vapid: { ...vapid, subject }, linkKey };
}

/** Loads the keys once per process, at their first use; a failed load (database away) is tried again next time. */
export function cachedReminderKeys(db: Kysely<DB>, config: Config): () => Promise<ReminderKeys> {
  let keys: Promise<ReminderKeys> | undefined;
  return () => {
    keys ??= loadReminderKeys(db, config).catch((err: unknown) => {
      keys = undefined;
      throw err;
    });
    return keys;
  };
}
