import { createHash } from 'node:crypto';

/**
 * Fixed namespace of the demo data set: every id is a name-based UUID (RFC 9562 version 5) of a stable
 * name such as `city:29019/waste-type:verre`, so rebuilding the bundle gives the same ids and a re-import
 * updates the rows in place instead of adding new ones.
 */
const DEMO_NAMESPACE = '6f1c3e0a-52d4-4c8e-9b7a-0d3f1e2c4b5a';

function uuidToBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

export function uuidV5(name: string, namespace: string = DEMO_NAMESPACE): string {
  const hash = createHash('sha1').update(uuidToBytes(namespace)).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The demo's id for a stable name. */
export const demoId = (name: string): string => uuidV5(name);

/** A deterministic number in [0, 1) for a name: "random" variety that is the same on every build. */
export function stableFraction(name: string): number {
  return createHash('sha1').update(name, 'utf8').digest().readUInt32BE(0) / 2 ** 32;
}

/** `Kerdeniel et Lauberlac'h` → `kerdeniel-et-lauberlac-h`, for stable names. */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
