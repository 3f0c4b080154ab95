import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
import { loadCities } from '../domain/city-model/read.ts';
import { inFaqOrder } from '../domain/faq-order.ts';
import { loadSchedules } from '../domain/schedules.ts';
import { readSnapshot } from '../db/snapshot.ts';
import type { ConversationTable, DB, MessageTable } from '../db/types.ts';
import { holidayCalendarOf } from '../kernel/holidays.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import type { CityKnowledge } from './knowledge.ts';
import { passagesOf } from './content.ts';

/** Chat storage: conversations, messages and language-model usage. Plain functions on rows, no HTTP (mapper.ts shapes them). */

export type ConversationRow = Selectable<ConversationTable>;
export type MessageRow = Selectable<MessageTable>;

/**
 * An ACTIF city with what the chat rules need: its group, and whether that group has the assistant (null: no group).
 * A NON_ACTIF city is as absent as an unknown one, for every chat rule.
 */
export async function findActiveChatCity(db: Kysely<DB>, cityId: string) {
  const row = await db
    .selectFrom('city')
    .leftJoin('city_group', 'city_group.id', 'city.city_group_id')
    .select(['city.id', 'city.city_group_id', 'city_group.chat_enabled'])
    .where('city.id', '=', cityId)
    .where('city.status', '=', 'ACTIF')
    .executeTakeFirst();
  return row ?? null;
}

export async function findChatGroup(db: Kysely<DB>, cityGroupId: string) {
  return (await db.selectFrom('city_group').select(['id', 'chat_enabled']).where('id', '=', cityGroupId).executeTakeFirst()) ?? null;
}

export async function placeIdsOfCity(db: Kysely<DB>, cityId: string): Promise<string[]> {
  const rows = await db.selectFrom('collection_place').select('id').where('city_id', '=', cityId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function isPlaceOfCity(db: Kysely<DB>, placeId: string, cityId: string): Promise<boolean> {
  const row = await db.selectFrom('collection_place').select('id').where('id', '=', placeId).where('city_id', '=', cityId).executeTakeFirst();
  return row !== undefined;
}

export async function insertConversation(db: Kysely<DB>, values: Omit<Insertable<ConversationTable>, 'id'>): Promise<ConversationRow> {
  return db.insertInto('conversation').values({ id: randomUUID(), ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function findConversation(db: Kysely<DB>, id: string): Promise<ConversationRow | null> {
  return (await db.selectFrom('conversation').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function updateConversation(
  db: Kysely<DB>,
  id: string,
  changes: Updateable<ConversationTable> & { updated_at: Date },
): Promise<ConversationRow> {
  return db.updateTable('conversation').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A query of conversations, before it selects or orders anything. */
export type ConversationQuery = SelectQueryBuilder<DB, 'conversation', {}>;
/** The order of a conversation listing: orderBy calls on the query that reads its rows. */
export type ConversationOrder = (
  query: SelectQueryBuilder<DB, 'conversation', ConversationRow>,
) => SelectQueryBuilder<DB, 'conversation', ConversationRow>;

/**
 * One page of the conversations `query` finds, in the order `order` gives, and their total: one count, then one
 * bounded read (none when the page lies past the end). The public device listing and the agents' inbox page alike.
 */
export async function conversationPage(
  query: ConversationQuery,
  order: ConversationOrder,
  page: PageRequest,
): Promise<{ rows: ConversationRow[]; total: number }> {
  const count = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const window = pageWindow(page, total);
  if (!window) return { rows: [], total };
  const rows = await order(query.selectAll()).limit(window.limit).offset(window.offset).execute();
  return { rows, total };
}

/** A device's conversations, newest first, one page of them and the total. */
export async function conversationsOfDevice(db: Kysely<DB>, deviceId: string, page: PageRequest) {
  const query = db.selectFrom('conversation').where('device_id', '=', deviceId);
  return conversationPage(query, (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
}

/**
 * One page of a conversation's messages: the `limit` most recent ones, or the `limit` before the message
 * `before` (a message of this conversation), returned oldest first; `older` says whether messages precede the
 * page. Insertion order (`seq`) breaks ties between equal timestamps. Null when `before` is not a message of this
 * conversation. Reads at most `limit + 1` rows, whatever the conversation's length.
 */
export async function messagePage(
  db: Kysely<DB>,
  conversationId: string,
  page: { limit: number; before?: string },
): Promise<{ rows: MessageRow[]; older: boolean } | null> {
  let query = db.selectFrom('message').selectAll().where('conversation_id', '=', conversationId);
  if (page.before !== undefined) {
    const cursor = await db
      .selectFrom('message')
      .select(['created_at', 'seq'])
      .where('id', '=', page.before)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (!cursor) return null;
    query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('created_at', 'seq'), '<', tuple(cursor.created_at, cursor.seq)));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(page.limit + 1).execute();
  const older = rows.length > page.limit;
  return { rows: rows.slice(0, page.limit).reverse(), older };
}

/** Whether the conversation holds at least `count` messages, reading no more than that many index entries. */
export async function holdsMessages(db: Kysely<DB>, conversationId: string, count: number): Promise<boolean> {
  const row = await db
    .selectFrom('message')
    .select('id')
    .where('conversation_id', '=', conversationId)
    .orderBy('created_at')
    .orderBy('seq')
    .offset(count - 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores a message; `db` may be a transaction (an agent's reply is stored with its conversation's change). */
export async function insertMessage(db: Kysely<DB>, values: Omit<Insertable<MessageTable>, 'id'>): Promise<MessageRow> {
  return db.insertInto('message').values({ id: randomUUID(), ...values }).returningAll().executeTakeFirstOrThrow();
}

/**
 * The day language-model usage is counted in (/chat/usage, and the daily budget of each group): agents work on French
 * local time, so a call at 00:30 in Paris belongs to that Paris day, summer and winter alike.
 */
export const USAGE_TIME_ZONE = 'Europe/Paris';

export async function recordLlmUsage(
  db: Kysely<DB>,
  values: { conversationId: string | null; cityGroupId: string; model: string; promptTokens: number; completionTokens: number; now: Date },
): Promise<void> {
  await db
    .insertInto('llm_usage')
    .values({
      id: randomUUID(),
      conversation_id: values.conversationId,
      city_group_id: values.cityGroupId,
      model: values.model,
      prompt_tokens: values.promptTokens,
      completion_tokens: values.completionTokens,
      created_at: values.now,
    })
    .execute();
}

/**
 * Everything the assistants know about an ACTIF city (the public city read plus its time zone, holiday calendar and
 * its places' schedules), or null. The city and the rest are read on one snapshot, so that a place's schedule is
 * always the one of the place the published city shows.
 */
export async function loadCityKnowledge(db: Kysely<DB>, cityId: string, now: Date): Promise<CityKnowledge | null> {
  const [cities, settings, streets, points, materials, schedules] = await readSnapshot(db, (trx) =>
    Promise.all([
      loadCities(trx, [cityId], now),
      trx.selectFrom('city').select(['time_zone', 'city_group_id', 'holiday_calendar']).where('id', '=', cityId).executeTakeFirst(),
      trx
        .selectFrom('place_street as s')
        .innerJoin('collection_place as p', 'p.id', 's.place_id')
        .where('p.city_id', '=', cityId)
        .select(['s.place_id as placeId', 's.street', 's.street_key as streetKey', 's.from_number as fromNumber', 's.to_number as toNumber', 's.side'])
        .execute(),
      trx.selectFrom('recycling_point').select(['id', 'opening_hours_spec', 'kind']).where('city_id', '=', cityId).execute(),
      trx.selectFrom('recycling_point_material').select(['recycling_point_id', 'waste_type_id']).where('city_id', '=', cityId).execute(),
      loadSchedules(trx, { cityId }),
    ]),
  );
  const city = cities[0];
  if (!city || !settings) return null;
  const group = await loadGroupKnowledge(db, settings.city_group_id, cityId, now);
  const taken = new Map<string, string[]>();
  for (const m of materials) taken.set(m.recycling_point_id, [...(taken.get(m.recycling_point_id) ?? []), m.waste_type_id]);
  return {
    city,
    timeZone: settings.time_zone,
    holidayCalendar: holidayCalendarOf(settings.holiday_calendar),
    schedules: Object.fromEntries(schedules.map((s) => [s.id, s.schedule])),
    streets,
    points: points.map((p) => ({ id: p.id, openingHoursSpec: p.opening_hours_spec, kind: p.kind, wasteTypeIds: taken.get(p.id) ?? [] })),
    ...group,
  };
}

/** One answer of the assistant counted (migration 0016): the row of its day, city, topic and question grows by one. */
export async function addChatCount(db: Kysely<DB>, row: { day: string; cityId: string; topic: string; question: string }): Promise<void> {
  await db
    .insertInto('chat_count')
    .values({ day: row.day, city_id: row.cityId, topic: row.topic.slice(0, 60), question: row.question.slice(0, 100), count: 1 })
    .onConflict((oc) => oc.columns(['day', 'city_id', 'topic', 'question']).doUpdateSet({ count: sql`chat_count.count + 1` }))
    .execute();
}

/**
 * What the assistants know of a city's group: passages of its published posts and pages and of its frequently asked
 * questions (each answer under its question, read on the commune's screen of the citizens' app), and its contact block.
 */
async function loadGroupKnowledge(
  db: Kysely<DB>,
  groupId: string | null,
  cityId: string,
  now: Date,
): Promise<Pick<CityKnowledge, 'content' | 'contact'>> {
  if (groupId === null) return { content: [], contact: { phone: null, email: null, hours: null, address: null, siteEmails: [] } };
  const [group, sites, posts, pages, faq] = await Promise.all([
    db.selectFrom('city_group').select(['contact_phone', 'contact_email', 'contact_hours', 'contact_address']).where('id', '=', groupId).executeTakeFirst(),
    db.selectFrom('site').select(['name', 'settings']).where('city_group_id', '=', groupId).orderBy('name').execute(),
    db
      .selectFrom('blog_post')
      .select(['id', 'title', 'content'])
      .where('city_group_id', '=', groupId)
      .where('published', '=', true)
      .where((eb) => eb.or([eb('published_at', 'is', null), eb('published_at', '<=', now)]))
      .orderBy('published_at', (ob) => ob.desc().nullsLast())
      .orderBy('id')
      .execute(),
    db
      .selectFrom('page')
      .innerJoin('site', 'site.id', 'page.site_id')
      .select(['page.id', 'page.title', 'page.content'])
      .where('site.city_group_id', '=', groupId)
      .where('page.published_at', 'is not', null)
      .where('page.published_at', '<=', now)
      .orderBy('page.id')
      .execute(),
    inFaqOrder(db.selectFrom('faq').select(['question', 'answer']).where('city_group_id', '=', groupId)).execute(),
  ]);
  const siteEmails = sites.flatMap((site) => {
    const email = (site.settings as { contactEmail?: unknown } | null)?.contactEmail;
    return typeof email === 'string' && email !== '' ? [{ site: site.name, email }] : [];
  });
  return {
    content: [
      ...posts.flatMap((p) => passagesOf({ title: p.title, path: `/actualites/${p.id}`, content: p.content })),
      ...pages.flatMap((p) => passagesOf({ title: p.title, path: `/pages/${p.id}`, content: p.content })),
      ...faq.flatMap((e) =>
        passagesOf({ title: 'Questions fréquentes', path: `/communes/${cityId}`, content: `## ${e.question}\n\n${e.answer}` }),
      ),
    ],
    contact: {
      phone: group?.contact_phone ?? null,
      email: group?.contact_email ?? null,
      hours: group?.contact_hours ?? null,
      address: group?.contact_address ?? null,
      siteEmails,
    },
  };
}

/**
 * Retention (CHAT_RETENTION_DAYS; docs/operating.md, chat retention): deletes at most `limit` conversations whose last
 * activity is before `before` — their creation, latest message and latest change (`updated_at`, which a message, an
 * assignment and a status change all move), and no message of theirs at or after `before` — whatever their status:
 * one untouched for that long is idle, an agent's included. Their messages and tickets go with them (ON DELETE
 * CASCADE); the language-model usage keeps its token counts without them (SET NULL); the chat counts never named a
 * conversation. One statement, so one transaction per batch. A conversation another transaction holds (an agent's
 * reply or status change, a citizen's message being stored) is skipped rather than waited for (SKIP LOCKED, and the
 * condition is checked again on its latest version), so several instances delete disjoint batches. Answers how many
 * were deleted.
 */
export async function deleteConversationsIdleSince(db: Kysely<DB>, before: Date, limit: number): Promise<number> {
  const deleted = await db
    .deleteFrom('conversation')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('conversation as c')
        .select('c.id')
        .where('c.created_at', '<', before)
        .where('c.updated_at', '<', before)
        .where((w) => w.or([w('c.last_message_at', 'is', null), w('c.last_message_at', '<', before)]))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('message as m').select('m.id').whereRef('m.conversation_id', '=', 'c.id').where('m.created_at', '>=', before))),
        )
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning('id')
    .execute();
  return deleted.length;
}
