import type { Insertable } from 'kysely';
import type { DB } from '../db/types.ts';
import type { ValidatedMedia } from './rules/media.ts';
import type { Bundle, BundleMenuItem } from './schema.ts';
import type { BundleTable, DatedTable } from './tables.ts';

/**
 * Turns a validated bundle into table rows, one explicit mapping per table, typed by the table (src/db/types.ts).
 * Every row of a table carries the same columns (absent optional fields become null), so that rows go in multi-row
 * inserts.
 */

export type Row<T extends BundleTable> = Insertable<DB[T]>;

/** A row of a table with created_at / updated_at, and whether the bundle gave them. */
export interface DatedRow<T extends DatedTable> {
  values: Row<T>;
  createdGiven: boolean;
  updatedGiven: boolean;
}

/**
 * The rows of each table. Challenges are sorted so that a required challenge comes before the challenges that
 * require it; menu items by depth, parents first.
 */
export type BundleRows = { [T in DatedTable]: DatedRow<T>[] } & { [T in Exclude<BundleTable, DatedTable>]: Row<T>[] };

const n = <T>(value: T | null | undefined): T | null => (value === undefined ? null : value);

function dated<T extends DatedTable>(values: Row<T>, item: { createdAt?: string | null; updatedAt?: string | null }, now: string): DatedRow<T> {
  return {
    values: { ...values, created_at: item.createdAt ?? now, updated_at: item.updatedAt ?? now },
    createdGiven: item.createdAt != null,
    updatedGiven: item.updatedAt != null,
  };
}

export function bundleRows(bundle: Bundle, media: ValidatedMedia[], nowDate: Date): BundleRows {
  const now = nowDate.toISOString();
  const rows: BundleRows = {
    city_group: [],
    city: [],
    waste_type: [],
    waste_type_detail: [],
    collection_place: [],
    collection_day: [],
    collection_exception: [],
    attached_location: [],
    recycling_point: [],
    recycling_point_material: [],
    quiz_question: [],
    challenge: [],
    badge: [],
    serie: [],
    serie_question: [],
    blog_post: [],
    site: [],
    page: [],
    menu: [],
    menu_item: [],
    media: [],
  };

  for (const g of bundle.cityGroups ?? []) {
    rows.city_group.push(
      dated(
        { id: g.id, name: g.name, type: g.type, code: g.code, siren: g.siren, siret: n(g.siret), chat_enabled: g.chatEnabled ?? false },
        g,
        now,
      ),
    );
  }

  const challengeDepth = new Map<string, number>();
  const requiredOf = new Map<string, string | null>();
  for (const city of bundle.cities ?? []) {
    rows.city.push(
      dated(
        {
          id: city.id,
          name: city.name,
          country: city.country,
          population: n(city.population),
          status: city.status,
          time_zone: city.timeZone ?? 'Europe/Paris',
          out_of_the_bins: n(city.outOfTheBins),
          presentation_of_bins: n(city.presentationOfBins),
          return_of_bins: n(city.returnOfBins),
          respect_of_calendar: n(city.respectOfCalendar),
          holidays: n(city.holidays),
          city_group_id: n(city.cityGroupId),
        },
        city,
        now,
      ),
    );
    for (const w of city.wasteTypes ?? []) {
      rows.waste_type.push({
        id: w.id,
        city_id: city.id,
        name: w.name,
        description: n(w.description),
        instructions: n(w.instructions),
        color: n(w.color),
        color_light: n(w.colorLight),
        icon: n(w.icon),
        image_url: n(w.imageUrl),
      });
      for (const d of w.details ?? []) {
        rows.waste_type_detail.push({
          id: d.id,
          waste_type_id: w.id,
          material: d.material,
          description: n(d.description),
          instructions: n(d.instructions),
          image_url: n(d.imageUrl),
        });
      }
    }
    for (const place of city.wasteCollectionPlaces ?? []) {
      rows.collection_place.push({ id: place.id, city_id: city.id, name: place.name });
      for (const day of place.collectionDays ?? []) {
        rows.collection_day.push({
          id: day.id,
          place_id: place.id,
          name: day.name,
          waste_type_id: day.wasteTypeId,
          description: n(day.description),
          biweekly: n(day.biweekly),
          start_date: n(day.startDate),
        });
      }
      for (const e of place.exceptions ?? []) {
        rows.collection_exception.push({
          id: e.id,
          place_id: place.id,
          date_from: e.dateFrom,
          date_to: n(e.dateTo),
          waste_type_id: e.wasteTypeId,
          name: n(e.name),
          description: n(e.description),
        });
      }
      for (const l of place.attachedLocations ?? []) {
        rows.attached_location.push({
          id: l.id,
          place_id: place.id,
          name: l.name,
          reference: l.reference,
          latitude: l.latitude,
          longitude: l.longitude,
        });
      }
    }
    for (const p of city.recyclingPoints ?? []) {
      rows.recycling_point.push({
        id: p.id,
        city_id: city.id,
        name: p.name,
        address: n(p.address),
        latitude: n(p.latitude),
        longitude: n(p.longitude),
        opening_hours: n(p.openingHours),
        opening_hours_spec: n(p.openingHoursSpec),
        kind: n(p.kind),
      });
      for (const wasteTypeId of p.materials ?? []) {
        rows.recycling_point_material.push({ recycling_point_id: p.id, waste_type_id: wasteTypeId, city_id: city.id });
      }
    }
    for (const q of city.quizQuestions ?? []) {
      rows.quiz_question.push({
        id: q.id,
        city_id: city.id,
        material: q.material,
        question: q.question,
        correct_waste_type_id: q.correctWasteTypeId,
        order: q.order ?? 0,
      });
    }
    for (const c of city.challenges ?? []) {
      requiredOf.set(c.id, c.requiredChallengeId ?? null);
      rows.challenge.push({
        id: c.id,
        city_id: city.id,
        name: c.name,
        description: n(c.description),
        enabled: c.enabled ?? true,
        start_date: n(c.startDate),
        end_date: n(c.endDate),
        order: c.order ?? 0,
        required_challenge_id: n(c.requiredChallengeId),
      });
      if (c.badge) {
        rows.badge.push({
          id: c.badge.id,
          challenge_id: c.id,
          name: c.badge.name,
          description: n(c.badge.description),
          icon: n(c.badge.icon),
          image_url: n(c.badge.imageUrl),
        });
      }
      for (const s of c.series ?? []) {
        rows.serie.push({ id: s.id, challenge_id: c.id, name: s.name, description: n(s.description), order: s.order ?? 0 });
        for (const qid of s.quizQuestionIds ?? []) rows.serie_question.push({ serie_id: s.id, quiz_question_id: qid });
      }
    }
  }
  // Requirements point backwards: a challenge goes in no earlier than the one it requires (validation ruled out cycles).
  const depth = (id: string): number => {
    const known = challengeDepth.get(id);
    if (known !== undefined) return known;
    const required = requiredOf.get(id);
    const d = required != null && requiredOf.has(required) ? depth(required) + 1 : 0;
    challengeDepth.set(id, d);
    return d;
  };
  rows.challenge.sort((a, b) => depth(a.id) - depth(b.id));

  for (const post of bundle.blogPosts ?? []) {
    rows.blog_post.push(
      dated(
        {
          id: post.id,
          title: post.title,
          content: post.content,
          published: post.published ?? false,
          published_at: n(post.publishedAt),
          city_group_id: post.cityGroupId,
        },
        post,
        now,
      ),
    );
  }

  const items: { row: Row<'menu_item'>; depth: number }[] = [];
  for (const site of bundle.sites ?? []) {
    rows.site.push(
      dated(
        {
          id: site.id,
          name: site.name,
          slug: site.slug,
          type: site.type,
          domain: n(site.domain),
          settings: JSON.stringify(site.settings ?? {}),
          theme: site.theme == null ? null : JSON.stringify(site.theme),
          city_group_id: n(site.cityGroupId),
        },
        site,
        now,
      ),
    );
    for (const page of site.pages ?? []) {
      rows.page.push(
        dated(
          {
            id: page.id,
            site_id: site.id,
            title: page.title,
            slug: page.slug,
            content: page.content ?? '',
            seo_title: n(page.seoTitle),
            seo_description: n(page.seoDescription),
            published_at: n(page.publishedAt),
          },
          page,
          now,
        ),
      );
    }
    for (const menu of site.menus ?? []) {
      rows.menu.push({ id: menu.id, site_id: site.id, name: menu.name, location: menu.location });
      const walk = (list: BundleMenuItem[] | null | undefined, parentId: string | null, level: number) => {
        for (const item of list ?? []) {
          items.push({
            depth: level,
            row: {
              id: item.id,
              menu_id: menu.id,
              parent_id: parentId,
              label: item.label,
              link_type: item.linkType,
              page_id: n(item.pageId),
              external_url: n(item.externalUrl),
              order: item.order ?? 0,
            },
          });
          walk(item.children, item.id, level + 1);
        }
      };
      walk(menu.items, null, 0);
    }
  }
  rows.menu_item = items.sort((a, b) => a.depth - b.depth).map((i) => i.row);

  const entries = new Map((bundle.media ?? []).map((m) => [m.id, m]));
  for (const file of media) {
    const entry = entries.get(file.id)!;
    rows.media.push(
      dated(
        {
          id: file.id,
          filename: file.filename,
          mime_type: file.mimeType,
          size: file.size,
          width: file.width,
          height: file.height,
          alt: n(entry.alt),
          public: entry.public ?? false,
          sha256: file.sha256,
        },
        entry,
        now,
      ),
    );
  }
  return rows;
}
