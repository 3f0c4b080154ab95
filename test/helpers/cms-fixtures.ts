import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB, MenuLinkType } from '../../src/db/types.ts';

/**
 * Fixture builders for blog posts, CMS sites, pages, menus and media: plain Kysely inserts, each with
 * sensible defaults and the columns a test cares about given explicitly.
 */

type Db = Kysely<DB>;
type When = Date | string | null;

export async function insertCityGroup(db: Db, values: { id?: string; name?: string; type?: string } = {}) {
  const row = {
    id: values.id ?? randomUUID(),
    name: values.name ?? 'Pays de Brocéliande',
    type: values.type ?? 'Communauté de communes',
    code: 'CC-BRO',
    siren: '200000000',
    chat_enabled: false,
  };
  await db.insertInto('city_group').values(row).execute();
  return row;
}

export async function insertBlogPost(
  db: Db,
  values: {
    cityGroupId: string;
    id?: string;
    title?: string;
    content?: string;
    published?: boolean;
    publishedAt?: When;
    createdAt?: string;
    updatedAt?: string;
  },
) {
  const row = {
    id: values.id ?? randomUUID(),
    title: values.title ?? 'Nouveaux horaires de la déchetterie',
    content: values.content ?? '# Bonjour\n\n:::tip\nSortez vos bacs la veille.\n:::\n\n<Calendrier ville="brest" />\n',
    published: values.published ?? true,
    published_at: values.publishedAt === undefined ? '2026-01-10T08:00:00.000Z' : values.publishedAt,
    city_group_id: values.cityGroupId,
    created_at: values.createdAt ?? '2026-01-01T00:00:00.000Z',
    updated_at: values.updatedAt ?? '2026-01-02T00:00:00.000Z',
  };
  await db.insertInto('blog_post').values(row).execute();
  return row;
}

export async function insertSite(
  db: Db,
  values: {
    id?: string;
    name?: string;
    slug?: string;
    type?: 'SITE' | 'APP';
    domain?: string | null;
    settings?: Record<string, unknown>;
    theme?: Record<string, unknown> | null;
    cityGroupId?: string | null;
  } = {},
) {
  const id = values.id ?? randomUUID();
  const row = {
    id,
    name: values.name ?? 'Site de la ville',
    slug: values.slug ?? `site-${id.slice(0, 8)}`,
    type: values.type ?? 'SITE',
    domain: values.domain === undefined ? null : values.domain,
    settings: JSON.stringify(values.settings ?? {}),
    theme: values.theme ? JSON.stringify(values.theme) : null,
    city_group_id: values.cityGroupId ?? null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-03T00:00:00.000Z',
  };
  await db.insertInto('site').values(row).execute();
  return row;
}

export async function insertPage(
  db: Db,
  values: {
    siteId: string;
    id?: string;
    title?: string;
    slug?: string;
    content?: string;
    seoTitle?: string | null;
    seoDescription?: string | null;
    publishedAt?: When;
  },
) {
  const id = values.id ?? randomUUID();
  const row = {
    id,
    site_id: values.siteId,
    title: values.title ?? 'Page',
    slug: values.slug ?? `page-${id.slice(0, 8)}`,
    content: values.content ?? '## Contenu',
    seo_title: values.seoTitle ?? null,
    seo_description: values.seoDescription ?? null,
    published_at: values.publishedAt === undefined ? '2026-01-05T00:00:00.000Z' : values.publishedAt,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-04T00:00:00.000Z',
  };
  await db.insertInto('page').values(row).execute();
  return row;
}

export async function insertMenu(db: Db, values: { siteId: string; id?: string; name?: string; location?: string }) {
  const row = {
    id: values.id ?? randomUUID(),
    site_id: values.siteId,
    name: values.name ?? 'Menu principal',
    location: values.location ?? 'header',
  };
  await db.insertInto('menu').values(row).execute();
  return row;
}

export async function insertMenuItem(
  db: Db,
  values: {
    menuId: string;
    id?: string;
    parentId?: string | null;
    label?: string;
    linkType?: MenuLinkType;
    pageId?: string | null;
    externalUrl?: string | null;
    order?: number;
  },
) {
  const row = {
    id: values.id ?? randomUUID(),
    menu_id: values.menuId,
    parent_id: values.parentId ?? null,
    label: values.label ?? 'Entrée',
    link_type: values.linkType ?? (values.pageId ? 'PAGE' : values.externalUrl ? 'EXTERNAL' : 'NONE'),
    page_id: values.pageId ?? null,
    external_url: values.externalUrl ?? null,
    order: values.order ?? 0,
  };
  await db.insertInto('menu_item').values(row).execute();
  return row;
}

/** A temporary MEDIA_DIR, removed when the test (or suite) ends. */
export function makeMediaDir(t: { after: (fn: () => void | Promise<void>) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-media-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A media row and, unless `writeFile` is false, its bytes at `mediaDir/<id>`, as the importer leaves them
 * (size and sha256 taken from the bytes).
 */
export async function insertMedia(
  db: Db,
  mediaDir: string,
  values: {
    bytes: Buffer;
    mimeType: string;
    id?: string;
    filename?: string;
    public?: boolean;
    alt?: string | null;
    width?: number | null;
    height?: number | null;
    writeFile?: boolean;
  },
) {
  const row = {
    id: values.id ?? randomUUID(),
    filename: values.filename ?? 'fichier.bin',
    mime_type: values.mimeType,
    size: values.bytes.length,
    width: values.width ?? null,
    height: values.height ?? null,
    alt: values.alt ?? null,
    public: values.public ?? true,
    sha256: createHash('sha256').update(values.bytes).digest('hex'),
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
  await db.insertInto('media').values(row).execute();
  if (values.writeFile !== false) fs.writeFileSync(path.join(mediaDir, row.id), values.bytes);
  return row;
}
