import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';

/**
 * A device id is a bearer secret: whoever holds it lists that device's conversations, of every city group, through the
 * public API. Agents see a pseudonym instead, `Appareil 4F2A9C`: the first 24 bits of an HMAC-SHA-256 of the device id
 * under a key the server holds. It is stable (an agent sees that two conversations come from the same phone, across
 * instances and restarts) and opens nothing.
 */
export type DevicePseudonyms = (deviceId: string) => string;

/** The label that derives the pseudonym key from CONSOLE_JWT_SECRET, so that the key is never the token secret itself. */
const KEY_LABEL = 'collecte device pseudonym';

export function devicePseudonyms(config: Pick<Config, 'devicePseudonymKey' | 'consoleJwtSecret'>): DevicePseudonyms {
  // Without either secret the console refuses every request, so no pseudonym is ever shown: any key will do.
  const key =
    config.devicePseudonymKey ??
    (config.consoleJwtSecret ? createHmac('sha256', config.consoleJwtSecret).update(KEY_LABEL).digest() : randomBytes(32));
  return (deviceId) => `Appareil ${createHmac('sha256', key).update(deviceId).digest('hex').slice(0, 6).toUpperCase()}`;
}
