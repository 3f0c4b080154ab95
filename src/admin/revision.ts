import { createHash } from 'node:crypto';
import { errors } from '../kernel/errors.ts';

/**
 * Versions of admin records for ETag and If-Match (docs/api.md, the admin API): two agents editing the same record never
 * overwrite each other silently. The tag is a hash of what the admin API shows of the record, plus whatever else
 * must move it (a row's `updated_at`, which a password change moves); it needs no column of its own.
 */

/** A strong ETag of a record: the SHA-256 of its parts as JSON. */
export function etagOf(...parts: unknown[]): string {
  return `"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;
}

/**
 * Throws 412 when an If-Match header was sent and names neither `*` nor `currentEtag`. Call it inside the write's
 * transaction, after reading the record FOR UPDATE, so that of two writes sent with the same tag, the second one
 * sees the first one's result and fails.
 */
export function assertIfMatch(ifMatch: string | undefined, currentEtag: string): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  // Strong comparison (RFC 9110 13.1.1): a weak tag never matches.
  if (!tags.includes('*') && !tags.includes(currentEtag)) throw errors.preconditionFailed();
}
