// The CMS site the app is served for: `?site=slug` (kept for the visit), or the site whose domain is this host.
import { get } from './api.ts';
import type { Listing, Menu, Site } from './types.ts';

export interface SiteChrome {
  site: Site;
  header: Menu | null;
  footer: Menu | null;
}

const KEY = 'collecte.site';

function slugFromUrl(): string | null {
  const fromQuery = new URLSearchParams(location.search).get('site');
  try {
    if (fromQuery) sessionStorage.setItem(KEY, fromQuery);
    return fromQuery ?? sessionStorage.getItem(KEY);
  } catch {
    return fromQuery;
  }
}

/** Hosts that cannot be a site's domain: no lookup for them. */
const LOCAL = /^(localhost|\d+\.\d+\.\d+\.\d+|\[[0-9a-f:]+\])$/i;

export async function loadSite(): Promise<SiteChrome | null> {
  let slug = slugFromUrl();
  if (!slug) {
    if (LOCAL.test(location.hostname)) return null;
    const sites = await get<Listing<Site>>('/public/cms/sites?type=SITE&pageSize=100');
    slug = sites.data.find((s) => s.domain?.toLowerCase() === location.hostname.toLowerCase())?.slug ?? null;
    if (!slug) return null;
  }
  const [site, menus] = await Promise.all([
    get<Site>(`/public/cms/sites/${encodeURIComponent(slug)}`),
    get<Menu[]>(`/public/cms/sites/${encodeURIComponent(slug)}/menus`),
  ]);
  return {
    site,
    header: menus.find((m) => m.location === 'header') ?? null,
    footer: menus.find((m) => m.location === 'footer') ?? null,
  };
}
