import type { Kysely, Selectable } from 'kysely';
import type { DB, MediaTable, MenuItemTable } from '../db/types.ts';
import { readSnapshot } from '../db/snapshot.ts';
import { iso, timestamps } from '../kernel/french.ts';
import { toAttachedLocation, toExceptionRecord, toQuizQuestion, toWasteType } from '../domain/city-model/mapper.ts';
import { toHolidayRule } from '../domain/holiday-rules.ts';
import { toAdminCity } from '../cities/admin-cities.ts';
import { toBadge } from '../domain/challenges.ts';
import { toAdminCityGroup } from '../cities/admin-city-groups.ts';
import { pointFields } from '../recycling/repository.ts';
import { exportRows, type ExportRows, type ExportScope } from './export-repository.ts';
import type { Bundle, BundleCity, BundleMedia, BundleMenuItem, BundleSite } from './schema.ts';

/**
 * An import bundle (docs/bundle.md) out of the database: the inverse of rows.ts, one explicit mapping per table,
 * so that exporting then importing into an empty database gives the same public answers (docs/api.md, the admin API).
 * Every field is written, null included, so that the file says what a record does not have. Records come in id order
 * (menu items by their position), so that two exports of the same data are the same bytes.
 */

/** A media file to put beside the bundle: its row, and the path the bundle names it by. */
export interface ExportedMedia {
  row: Selectable<MediaTable>;
  path: string;
}

export interface ExportedBundle {
  bundle: Bundle;
  media: ExportedMedia[];
}

/** Where a media file goes in the archive: `media/<id>-<file name>`, the name reduced to safe characters. */
export function mediaPath(row: Pick<Selectable<MediaTable>, 'id' | 'filename'>): string {
  const safe = row.filename.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 50);
  return `media/${row.id}${safe ? `-${safe}` : ''}`;
}

/** What an export may leave out: the console's canned replies, for an agent who may not read them. */
export interface ExportOptions {
  /** false leaves each group's `cannedReplies` out (not []), so that importing the bundle leaves them alone. */
  cannedReplies: boolean;
}

/** The bundle of `scope`'s groups (null: everything). `withMedia` false leaves media out (a JSON-only bundle). */
export async function exportBundle(
  db: Kysely<DB>,
  scope: ExportScope,
  withMedia: boolean,
  options: ExportOptions = { cannedReplies: true },
): Promise<ExportedBundle> {
  const rows = await readSnapshot(db, (trx) => exportRows(trx, scope));
  return toBundle(rows, withMedia, options);
}

export function toBundle(rows: ExportRows, withMedia: boolean, options: ExportOptions = { cannedReplies: true }): ExportedBundle {
  const by = <R, K extends keyof R>(list: R[], key: K) => Map.groupBy(list, (row) => row[key]);
  const repliesOf = by(rows.canned_reply, 'city_group_id');
  const faqOf = by(rows.faq, 'city_group_id');
  const rulesOf = by(rows.holiday_rule, 'city_group_id');
  const detailsOf = by(rows.waste_type_detail, 'waste_type_id');
  const wasteTypesOf = by(rows.waste_type, 'city_id');
  const placesOf = by(rows.collection_place, 'city_id');
  const daysOf = by(rows.collection_day, 'place_id');
  const exceptionsOf = by(rows.collection_exception, 'place_id');
  const locationsOf = by(rows.attached_location, 'place_id');
  const streetsOf = by(rows.place_street, 'place_id');
  const pointsOf = by(rows.recycling_point, 'city_id');
  const materialsOf = by(rows.recycling_point_material, 'recycling_point_id');
  const questionsOf = by(rows.quiz_question, 'city_id');
  const challengesOf = by(rows.challenge, 'city_id');
  const badgeOf = new Map(rows.badge.map((b) => [b.challenge_id, b]));
  const seriesOf = by(rows.serie, 'challenge_id');
  const serieQuestionsOf = by(rows.serie_question, 'serie_id');
  const pagesOf = by(rows.page, 'site_id');
  const menusOf = by(rows.menu, 'site_id');
  const itemsOf = by(rows.menu_item, 'menu_id');

  // A city and a group are the admin API's, with what they hold.
  const cities: BundleCity[] = rows.city.map((city) => ({
    ...toAdminCity(city),
    // The bundle's waste type is the public one (details by material).
    wasteTypes: (wasteTypesOf.get(city.id) ?? []).map((w) => toWasteType(w, detailsOf.get(w.id) ?? [])),
    wasteCollectionPlaces: (placesOf.get(city.id) ?? []).map((place) => ({
      id: place.id,
      name: place.name,
      collectionDays: (daysOf.get(place.id) ?? []).map((day) => ({
        id: day.id,
        name: day.name,
        wasteTypeId: day.waste_type_id,
        description: day.description,
        biweekly: day.biweekly,
        startDate: iso(day.start_date),
      })),
      exceptions: (exceptionsOf.get(place.id) ?? []).map(toExceptionRecord),
      attachedLocations: (locationsOf.get(place.id) ?? []).map(toAttachedLocation),
      streets: (streetsOf.get(place.id) ?? []).map((r) => ({
        id: r.id,
        street: r.street,
        fromNumber: r.from_number,
        toNumber: r.to_number,
        side: r.side,
      })),
      area: place.area,
    })),
    recyclingPoints: (pointsOf.get(city.id) ?? []).map((p) => ({
      id: p.id,
      ...pointFields(p),
      materials: (materialsOf.get(p.id) ?? []).map((m) => m.waste_type_id),
    })),
    quizQuestions: (questionsOf.get(city.id) ?? []).map(toQuizQuestion),
    challenges: (challengesOf.get(city.id) ?? []).map((c) => {
      const badge = badgeOf.get(c.id);
      return {
        id: c.id,
        name: c.name,
        description: c.description,
        enabled: c.enabled,
        startDate: iso(c.start_date),
        endDate: iso(c.end_date),
        order: c.order,
        requiredChallengeId: c.required_challenge_id,
        passingScore: c.passing_score,
        badge: badge ? toBadge(badge) : null,
        series: (seriesOf.get(c.id) ?? []).map((s) => ({
          id: s.id,
          name: s.name,
          description: s.description,
          order: s.order,
          quizQuestionIds: (serieQuestionsOf.get(s.id) ?? []).map((sq) => sq.quiz_question_id),
        })),
      };
    }),
  }));

  const sites: BundleSite[] = rows.site.map((site) => ({
    id: site.id,
    name: site.name,
    slug: site.slug,
    type: site.type,
    domain: site.domain,
    settings: site.settings as Record<string, unknown>,
    theme: site.theme,
    cityGroupId: site.city_group_id,
    ...timestamps(site),
    pages: (pagesOf.get(site.id) ?? []).map((page) => ({
      id: page.id,
      title: page.title,
      slug: page.slug,
      content: page.content,
      seoTitle: page.seo_title,
      seoDescription: page.seo_description,
      publishedAt: iso(page.published_at),
      ...timestamps(page),
    })),
    menus: (menusOf.get(site.id) ?? []).map((menu) => ({
      id: menu.id,
      name: menu.name,
      location: menu.location,
      items: menuTree(itemsOf.get(menu.id) ?? []),
    })),
  }));

  const media: ExportedMedia[] = withMedia ? rows.media.map((row) => ({ row, path: mediaPath(row) })) : [];
  const bundle: Bundle = {
    cityGroups: rows.city_group.map((g) => ({
      ...toAdminCityGroup(g, (rulesOf.get(g.id) ?? []).sort((a, b) => a.position - b.position).map(toHolidayRule)),
      // What residents read on the group's pages, in the group's order (position, then the oldest first).
      faq: (faqOf.get(g.id) ?? []).map((e) => ({ id: e.id, question: e.question, answer: e.answer, position: e.position, ...timestamps(e) })),
      // The console's canned replies: the group's configuration, so that a moved group answers its citizens the same.
      ...(options.cannedReplies
        ? { cannedReplies: (repliesOf.get(g.id) ?? []).map((r) => ({ id: r.id, title: r.title, content: r.content, ...timestamps(r) })) }
        : {}),
    })),
    cities,
    blogPosts: rows.blog_post.map((post) => ({
      id: post.id,
      title: post.title,
      content: post.content,
      published: post.published,
      publishedAt: iso(post.published_at),
      cityGroupId: post.city_group_id,
      ...timestamps(post),
    })),
    sites,
    media: media.map(({ row, path }): BundleMedia => ({
      id: row.id,
      filename: row.filename,
      mimeType: row.mime_type,
      public: row.public,
      alt: row.alt,
      cityGroupId: row.city_group_id,
      path,
      ...timestamps(row),
    })),
  };
  return { bundle, media };
}

/** A menu's items as the bundle nests them: children under their parent, siblings by position then id. */
function menuTree(items: Selectable<MenuItemTable>[]): BundleMenuItem[] {
  const childrenOf = Map.groupBy(items, (item) => item.parent_id);
  const level = (parentId: string | null): BundleMenuItem[] =>
    (childrenOf.get(parentId) ?? [])
      .toSorted((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1))
      .map((item) => ({
        id: item.id,
        label: item.label,
        linkType: item.link_type,
        pageId: item.page_id,
        externalUrl: item.external_url,
        order: item.order,
        children: level(item.id),
      }));
  return level(null);
}
