import { streetKey } from '../kernel/address.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { childPath, under, type RecordFault } from '../domain/rules/faults.ts';
import { blogPostFaults } from '../blog/post-rules.ts';
import { challengeFaults, serieFaults, type CityQuizQuestions } from '../challenges/challenge-rules.ts';
import {
  cityFaults,
  cityGroupFaults,
  collectionDayFaults,
  collectionExceptionFaults,
  quizQuestionFaults,
  recyclingPointFaults,
  type CityWasteTypes,
} from '../domain/rules/cities.ts';
import { areaFaults, streetOverlapFaults, streetRuleFaults, type OtherPlaceRule } from '../cities/place-rules.ts';
import { readMedia, type ValidatedMedia } from './media-entry.ts';
import { menuItemFaults, pageFaults, type SitePages } from '../cms/site-rules.ts';
import type {
  Bundle,
  BundleBlogPost,
  BundleChallenge,
  BundleCity,
  BundleCityGroup,
  BundleCollectionPlace,
  BundleMedia,
  BundleMenuItem,
  BundleSite,
} from './schema.ts';
import type { ChildTable } from './tables.ts';
import type { DatabaseChecks } from './validate-database.ts';

/**
 * The one pass over a bundle whose shape is right. It claims every id (an id names one row of its table), checks
 * each record with its entity's rules (src/domain/rules/ and the areas' `*-rules.ts`, which the admin API's writes
 * run too) and the ids that record may reference, and sets aside what only the database can confirm
 * (validate-database.ts). Faults come in the order the bundle lists its records; a blog
 * post's or a page's, whose MDX compiles meanwhile, when the compiler is done.
 */
export class BundleWalk {
  readonly faults: RecordFault[] = [];
  readonly forDatabase: DatabaseChecks = { groupReferences: [], requirements: [], owned: new Map(), slugs: [], holidayRules: [] };
  private readonly ids = new Map<IdTable, FirstUses>();
  private readonly siteSlugs = new FirstUses();
  private readonly compiling: Promise<void>[] = [];
  /** The folder media paths are relative to. */
  private readonly baseDir: string;

  constructor(baseDir: string) {
    this.baseDir = baseDir;
  }

  /** Walks the whole bundle; answers its media, each file read and checked. */
  async walk(bundle: Bundle): Promise<ValidatedMedia[]> {
    each(bundle.cityGroups, 'cityGroups', (group, path) => this.cityGroup(group, path));
    each(bundle.cities, 'cities', (city, path) => this.city(city, path));
    each(bundle.blogPosts, 'blogPosts', (post, path) => this.blogPost(post, path));
    each(bundle.sites, 'sites', (site, path) => this.site(site, path));
    const media = await this.media(bundle.media ?? []);
    await Promise.all(this.compiling);
    this.forDatabase.slugs = this.siteSlugs.values();
    return media;
  }

  private cityGroup(group: BundleCityGroup, path: string): void {
    this.claim('city_group', group.id, path);
    this.report(path, cityGroupFaults(group));
    this.children('canned_reply', group.cannedReplies, `${path}.cannedReplies`, group.id);
    this.children('faq', group.faq, `${path}.faq`, group.id);
    // The waste types they name are the group's cities', of the bundle or of the database.
    if (group.holidayRules != null) this.forDatabase.holidayRules.push({ groupId: group.id, rules: group.holidayRules, path });
  }

  private city(city: BundleCity, path: string): void {
    this.claim('city', city.id, path);
    this.report(path, cityFaults(city));
    if (city.cityGroupId != null) this.forDatabase.groupReferences.push({ record: city, path });
    const ids: CityWasteTypes & CityQuizQuestions & { timeZone?: string | null } = {
      timeZone: city.timeZone,
      wasteTypeIds: new Set((city.wasteTypes ?? []).map((w) => w.id)),
      quizQuestionIds: new Set((city.quizQuestions ?? []).map((q) => q.id)),
    };
    this.children('waste_type', city.wasteTypes, `${path}.wasteTypes`, city.id, (wasteType, p) =>
      this.children('waste_type_detail', wasteType.details, `${p}.details`, wasteType.id),
    );
    this.children('collection_place', city.wasteCollectionPlaces, `${path}.wasteCollectionPlaces`, city.id, (place, p) =>
      this.collectionPlace(place, p, ids),
    );
    this.streetOverlaps(city.wasteCollectionPlaces ?? [], `${path}.wasteCollectionPlaces`);
    this.children('recycling_point', city.recyclingPoints, `${path}.recyclingPoints`, city.id, (point, p) =>
      this.report(p, recyclingPointFaults(point, ids)),
    );
    this.children('quiz_question', city.quizQuestions, `${path}.quizQuestions`, city.id, (question, p) =>
      this.report(p, quizQuestionFaults(question, ids)),
    );
    this.children('challenge', city.challenges, `${path}.challenges`, city.id, (challenge, p) => this.challenge(challenge, p, ids));
  }

  private collectionPlace(place: BundleCollectionPlace, path: string, city: CityWasteTypes & { timeZone?: string | null }): void {
    this.children('collection_day', place.collectionDays, `${path}.collectionDays`, place.id, (day, p) =>
      this.report(p, collectionDayFaults(day, city)),
    );
    this.children('collection_exception', place.exceptions, `${path}.exceptions`, place.id, (exception, p) =>
      this.report(p, collectionExceptionFaults(exception, city)),
    );
    this.children('attached_location', place.attachedLocations, `${path}.attachedLocations`, place.id);
    this.children('place_street', place.streets, `${path}.streets`, place.id, (rule, p) => this.report(p, streetRuleFaults(rule)));
    this.report(path, areaFaults(place.area));
  }

  /**
   * No two places of a city claim one address: each valid rule is checked against the valid rules of the places
   * listed before its own, the fault at the later one naming the earlier one's path. The bundle lists all the
   * city's places (those it leaves out are deleted), so the database has nothing to add.
   */
  private streetOverlaps(places: BundleCollectionPlace[], path: string): void {
    const earlier = new Map<string, OtherPlaceRule[]>();
    places.forEach((place, i) => {
      const own: [string, OtherPlaceRule][] = [];
      (place.streets ?? []).forEach((rule, j) => {
        if (streetRuleFaults(rule).length > 0) return;
        const key = streetKey(rule.street);
        const rulePath = `${path}[${i}].streets[${j}]`;
        this.report(rulePath, streetOverlapFaults(rule, earlier.get(key) ?? []));
        own.push([key, { rule, describedAs: rulePath }]);
      });
      for (const [key, rule] of own) earlier.set(key, [...(earlier.get(key) ?? []), rule]);
    });
  }

  private challenge(challenge: BundleChallenge, path: string, city: CityQuizQuestions): void {
    if (challenge.requiredChallengeId != null) this.forDatabase.requirements.push({ record: challenge, path });
    this.report(path, challengeFaults(challenge));
    if (challenge.badge) this.own('badge', challenge.badge.id, challenge.id, `${path}.badge`);
    this.children('serie', challenge.series, `${path}.series`, challenge.id, (serie, p) => this.report(p, serieFaults(serie, city)));
  }

  private blogPost(post: BundleBlogPost, path: string): void {
    this.claim('blog_post', post.id, path);
    this.forDatabase.groupReferences.push({ record: post, path });
    this.compiling.push(blogPostFaults(post).then((faults) => this.report(path, faults)));
  }

  private site(site: BundleSite, path: string): void {
    this.claim('site', site.id, path);
    this.unique(this.siteSlugs, site.slug, path, 'slug', bundleMessages.slugTaken);
    if (site.cityGroupId != null) this.forDatabase.groupReferences.push({ record: site, path });
    const pages: SitePages = { pageIds: new Set((site.pages ?? []).map((p) => p.id)) };
    const pageSlugs = new FirstUses();
    this.children('page', site.pages, `${path}.pages`, site.id, (page, p) => {
      this.unique(pageSlugs, page.slug, p, 'slug', bundleMessages.slugTaken);
      this.compiling.push(pageFaults(page).then((faults) => this.report(p, faults)));
    });
    const locations = new FirstUses();
    this.children('menu', site.menus, `${path}.menus`, site.id, (menu, p) => {
      this.unique(locations, menu.location, p, 'location', bundleMessages.menuLocationTaken);
      this.menuItems(menu.items, `${p}.items`, menu.id, pages);
    });
  }

  private menuItems(items: BundleMenuItem[] | null | undefined, path: string, menuId: string, site: SitePages): void {
    this.children('menu_item', items, path, menuId, (item, p) => {
      this.report(p, menuItemFaults(item, site));
      this.menuItems(item.children, `${p}.children`, menuId, site);
    });
  }

  /** One file at a time: a bundle may list thousands. */
  private async media(entries: BundleMedia[]): Promise<ValidatedMedia[]> {
    const media: ValidatedMedia[] = [];
    for (const [i, entry] of entries.entries()) {
      const path = `media[${i}]`;
      this.claim('media', entry.id, path);
      if (entry.cityGroupId != null) this.forDatabase.groupReferences.push({ record: entry, path });
      const read = await readMedia(entry, this.baseDir);
      if ('fault' in read) this.report(path, [read.fault]);
      else media.push(read.media);
    }
    return media;
  }

  private report(recordPath: string, faults: RecordFault[]): void {
    this.faults.push(...under(recordPath, faults));
  }

  /** `value` is unique among `taken`: a second record holding it is a fault at its `field`, naming the first. */
  private unique(taken: FirstUses, value: string, path: string, field: string, message: (value: string, first: string) => string): void {
    const first = taken.take(value, path);
    if (first !== undefined) this.faults.push({ path: childPath(path, field), message: message(value, first) });
  }

  private claim(table: IdTable, id: string, path: string): void {
    let taken = this.ids.get(table);
    if (!taken) this.ids.set(table, (taken = new FirstUses()));
    this.unique(taken, id, path, 'id', bundleMessages.idTaken);
  }

  /** Each record of a list that belongs to `parentId`: its id owned, then `visit` (its rules, its own children). */
  private children<R extends { id: string }>(
    table: ChildTable,
    list: R[] | null | undefined,
    path: string,
    parentId: string,
    visit?: (record: R, path: string) => void,
  ): void {
    each(list, path, (record, p) => {
      this.own(table, record.id, parentId, p);
      visit?.(record, p);
    });
  }

  /** Claims the id of a row that belongs to `parentId`; the database must not hold it under another parent. */
  private own(table: ChildTable, id: string, parentId: string, path: string): void {
    this.claim(table, id, path);
    let owned = this.forDatabase.owned.get(table);
    if (!owned) this.forDatabase.owned.set(table, (owned = []));
    owned.push({ id, parentId, path });
  }
}

/** Each item of an optional list with its JSON path, `list[i]`. */
function each<T>(list: T[] | null | undefined, path: string, visit: (item: T, itemPath: string) => void): void {
  (list ?? []).forEach((item, i) => visit(item, `${path}[${i}]`));
}

type IdTable = ChildTable | 'city_group' | 'city' | 'blog_post' | 'site' | 'media';

/** The JSON path of the first record holding each value (an id, a slug, a menu location). */
class FirstUses {
  private readonly firstPaths = new Map<string, string>();

  /** The path that holds `value` already, or undefined after recording `path` as its holder. */
  take(value: string, path: string): string | undefined {
    const first = this.firstPaths.get(value);
    if (first === undefined) this.firstPaths.set(value, path);
    return first;
  }

  values(): string[] {
    return [...this.firstPaths.keys()];
  }
}
