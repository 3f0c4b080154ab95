import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ChangeFeed, LOOKBACK } from '../kernel/change-feed.ts';
import { LiveStreams } from '../http/live-streams.ts';
import { showRequests } from './admin-requests.ts';
import { followersAmong, requestChanges, requestsChangedAfter, type ChangedRequestRow } from './repository.ts';
import type { AdminRequest, ResidentRequest } from './schemas.ts';
import { showToResidents } from './service.ts';

/**
 * Requests, live (docs/api.md, resident requests): the staff's queue (`GET /admin/requests/events`) and a device's
 * requests (`GET /public/requests/events`) as server-sent events, each instance reading the requests' change numbers
 * (migration 0021) twice a second while anyone listens, whichever instance took the write.
 */

/** Most streams of each kind one instance holds open. */
export const MAX_STAFF_STREAMS = 1000;
export const MAX_DEVICE_STREAMS = 5000;

export interface StaffChange {
  seq: number;
  request: AdminRequest;
}

export interface DeviceChange {
  seq: number;
  request: ResidentRequest;
  /** The listening devices that follow it. */
  devices: ReadonlySet<string>;
}

/** The staff's streams: each poll's requests shown once as the queue lists them, each stream keeping its groups'. */
export function staffStreams(db: Kysely<DB>, clock: () => Date, onError: (err: unknown) => void) {
  return new LiveStreams<ChangedRequestRow, StaffChange>(
    new ChangeFeed(requestChanges(db), { onError }),
    async (rows) => {
      const shown = await showRequests(db, [...rows], clock());
      return shown.map((request, i) => ({ seq: rows[i].seq, request }));
    },
    { max: MAX_STAFF_STREAMS, onError },
  );
}

/** The devices' streams: of each poll's requests, those a listening device follows, as its device sees them. */
export function deviceStreams(db: Kysely<DB>, onError: (err: unknown) => void) {
  return new LiveStreams<ChangedRequestRow, DeviceChange>(
    new ChangeFeed(requestChanges(db), { onError }),
    async (rows, devices) => {
      const pairs = await followersAmong(db, rows.map((r) => r.id), [...devices]);
      if (pairs.length === 0) return [];
      const followers = Map.groupBy(pairs, (p) => p.request_id);
      const followed = rows.filter((r) => followers.has(r.id));
      const shown = await showToResidents(db, followed);
      return shown.map((request, i) => ({
        seq: followed[i].seq,
        request,
        devices: new Set(followers.get(request.id)!.map((p) => p.device_id)),
      }));
    },
    { max: MAX_DEVICE_STREAMS, onError },
  );
}

/** Most changes a reconnecting stream catches up with; past them, the reader reloads its list instead. */
const CATCH_UP_LIMIT = 500;

/** What changed after a reconnecting stream's `Last-Event-ID`, looking LOOKBACK numbers behind it (kernel/change-feed.ts). */
async function changedSince(db: Kysely<DB>, lastEventId: number, of: { groupIds?: readonly string[] | null; deviceId?: string }) {
  const rows = await requestsChangedAfter(db, lastEventId - LOOKBACK, CATCH_UP_LIMIT + 1, of);
  return { rows: rows.slice(0, CATCH_UP_LIMIT), complete: rows.length <= CATCH_UP_LIMIT };
}

export async function staffCatchUp(db: Kysely<DB>, clock: () => Date, lastEventId: number, groupIds: readonly string[] | null) {
  const { rows, complete } = await changedSince(db, lastEventId, { groupIds });
  const shown = await showRequests(db, rows, clock());
  return { items: shown.map((request, i): StaffChange => ({ seq: rows[i].seq, request })), complete };
}

export async function deviceCatchUp(db: Kysely<DB>, lastEventId: number, deviceId: string) {
  const { rows, complete } = await changedSince(db, lastEventId, { deviceId });
  const shown = await showToResidents(db, rows);
  return { items: shown.map((request, i): DeviceChange => ({ seq: rows[i].seq, request, devices: new Set([deviceId]) })), complete };
}
