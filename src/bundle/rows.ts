import { groupContactColumns } from '../domain/group-contact.ts';
import { holidayRuleRows } from '../domain/holiday-rules.ts';
import { addCityRows, sortByRequirement } from './city-rows.ts';
import type { ValidatedMedia } from './media-entry.ts';
import type { Bundle, BundleMenuItem } from './schema.ts';
import { datedRow, orNull as n, WRITE_ORDER, type BundleRows, type Row } from './tables.ts';

/**
 * Turns a validated bundle into table rows, one explicit mapping per table, typed by the table (src/db/types.ts);
 * a city's are in city-rows.ts. Every row of a table carries the same columns (absent optional fields become null),
 * so that rows go in multi-row inserts.
 */

export function bundleRows(bundle: Bundle, media: ValidatedMedia[], nowDate: Date): BundleRows {
  const now = nowDate.toISOString();
  const rows = Object.fromEntries(WRITE_ORDER.map((table) => [table, []])) as unknown as BundleRows;
  rows.listedParents = { canned_reply: [], faq: [], holiday_rule: [] };

  for (const g of bundle.cityGroups ?? []) {
    rows.city_group.push(
      datedRow(
        { id: g.id, name: g.name, type: g.type, code: g.code, siren: g.siren, siret: n(g.siret), chat_enabled: g.chatEnabled ?? false, ...groupContactColumns(g) },
        g,
        now,
      ),
    );
    // Left out: the group's holiday rules, frequently asked questions and canned replies stay as they are (schema.ts).
    if (g.holidayRules != null) {
      rows.listedParents.holiday_rule.push(g.id);
      rows.holiday_rule.push(...holidayRuleRows(g.id, g.holidayRules));
    }
    if (g.faq != null) {
      rows.listedParents.faq.push(g.id);
      for (const entry of g.faq) {
        rows.faq.push(datedRow({ id: entry.id, city_group_id: g.id, question: entry.question, answer: entry.answer, position: entry.position ?? 0 }, entry, now));
      }
    }
    if (g.cannedReplies == null) continue;
    rows.listedParents.canned_reply.push(g.id);
    for (const reply of g.cannedReplies) {
      rows.canned_reply.push(datedRow({ id: reply.id, city_group_id: g.id, title: reply.title, content: reply.content }, reply, now));
    }
  }

  for (const city of bundle.cities ?? []) addCityRows(rows, city, now);
  sortByRequirement(rows.challenge);

  for (const post of bundle.blogPosts ?? []) {
    rows.blog_post.push(
      datedRow(
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
      datedRow(
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
        datedRow(
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
      datedRow(
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
          city_group_id: n(entry.cityGroupId),
        },
        entry,
        now,
      ),
    );
  }
  return rows;
}
