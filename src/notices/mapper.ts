import { iso, timestamps } from '../kernel/french.ts';
import type { NoticeRow } from './repository.ts';
import type { AdminNotice, Notice } from './schemas.ts';

/** The one place a notice's row becomes an API shape: the residents' and the agents'. */

export const toNotice = (row: NoticeRow): Notice => ({
  id: row.id,
  title: row.title,
  body: row.body,
  severity: row.severity,
  startsAt: iso(row.starts_at)!,
  endsAt: iso(row.ends_at),
});

export const toAdminNotice = (row: NoticeRow): AdminNotice => ({
  id: row.id,
  cityGroupId: row.city_group_id,
  cityIds: row.city_ids,
  placeIds: row.place_ids,
  title: row.title,
  body: row.body,
  severity: row.severity,
  startsAt: iso(row.starts_at)!,
  endsAt: iso(row.ends_at),
  notify: row.notify,
  notifiedAt: iso(row.notified_at),
  ...timestamps(row),
});
