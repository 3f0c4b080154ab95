import path from 'node:path';
import { compile } from '@mdx-js/mdx';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { BundleValidationError, childPath, type BundleFault } from './faults.ts';
import { inspectMediaFile, type MediaFileFacts } from './media-file.ts';
import type { Bundle, BundleMenuItem } from './schema.ts';
import { schemaFaults } from './schema-faults.ts';

export { BundleValidationError, type BundleFault } from './faults.ts';

/** A media entry once its file has been read and checked. */
export interface ValidatedMedia extends MediaFileFacts {
  id: string;
  filename: string;
  mimeType: string;
}

export interface ValidatedBundle {
  /** The bundle with every id in lowercase (the form PostgreSQL gives back). */
  bundle: Bundle;
  media: ValidatedMedia[];
}

/** The tables whose rows belong to a parent; an id cannot move from one parent to another. */
type ChildTable =
  | 'waste_type'
  | 'waste_type_detail'
  | 'collection_place'
  | 'collection_day'
  | 'collection_exception'
  | 'attached_location'
  | 'recycling_point'
  | 'quiz_question'
  | 'challenge'
  | 'badge'
  | 'serie'
  | 'page'
  | 'menu'
  | 'menu_item';

const PARENT: Record<ChildTable, { column: string; label: string }> = {
  waste_type: { column: 'city_id', label: 'la ville' },
  waste_type_detail: { column: 'waste_type_id', label: 'le type de déchet' },
  collection_place: { column: 'city_id', label: 'la ville' },
  collection_day: { column: 'place_id', label: 'le lieu de collecte' },
  collection_exception: { column: 'place_id', label: 'le lieu de collecte' },
  attached_location: { column: 'place_id', label: 'le lieu de collecte' },
  recycling_point: { column: 'city_id', label: 'la ville' },
  quiz_question: { column: 'city_id', label: 'la ville' },
  challenge: { column: 'city_id', label: 'la ville' },
  badge: { column: 'challenge_id', label: 'le défi' },
  serie: { column: 'challenge_id', label: 'le défi' },
  page: { column: 'site_id', label: 'le site' },
  menu: { column: 'site_id', label: 'le site' },
  menu_item: { column: 'menu_id', label: 'le menu' },
};

type Kind = ChildTable | 'city_group' | 'city' | 'blog_post' | 'site' | 'media';

interface Owned {
  id: string;
  parentId: string;
  path: string;
}

interface Reference {
  id: string;
  path: string;
}

/** Keys that hold ids; their values are compared and stored in lowercase. */
const ID_KEYS = new Set(['id', 'cityGroupId', 'wasteTypeId', 'correctWasteTypeId', 'requiredChallengeId', 'pageId']);
/** Free-form objects whose keys are not ours. */
const OPAQUE_KEYS = new Set(['settings', 'theme']);

function lowercaseIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowercaseIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (ID_KEYS.has(key) && typeof v === 'string') out[key] = v.toLowerCase();
    else if (key === 'quizQuestionIds' && Array.isArray(v)) out[key] = v.map((s) => (s as string).toLowerCase());
    else if (OPAQUE_KEYS.has(key)) out[key] = v;
    else out[key] = lowercaseIds(v);
  }
  return out;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a bundle completely before anything is written: its shape first, then, once the shape is right,
 * every id, date rule and reference (within the bundle and against the database), the MDX of blog posts
 * and the media files. Throws a BundleValidationError listing every fault with its JSON path.
 */
export async function validateBundle(
  db: Kysely<DB>,
  input: unknown,
  options: { baseDir: string },
): Promise<ValidatedBundle> {
  const shapeFaults = schemaFaults(input);
  if (shapeFaults.length > 0) throw new BundleValidationError(shapeFaults);

  const bundle = lowercaseIds(input) as Bundle;
  const faults: BundleFault[] = [];
  const fault = (path: string, message: string) => faults.push({ path, message });

  const firstUse = new Map<Kind, Map<string, string>>();
  const claim = (kind: Kind, id: string, path: string) => {
    let seen = firstUse.get(kind);
    if (!seen) firstUse.set(kind, (seen = new Map()));
    const first = seen.get(id);
    if (first !== undefined) fault(childPath(path, 'id'), `l’identifiant ${id} est déjà utilisé par ${first}`);
    else seen.set(id, path);
  };
  const owned = new Map<ChildTable, Owned[]>();
  const own = (table: ChildTable, id: string, parentId: string, path: string) => {
    claim(table, id, path);
    let list = owned.get(table);
    if (!list) owned.set(table, (list = []));
    list.push({ id, parentId, path });
  };
  const groupRefs: Reference[] = [];
  const requirements: { challengeId: string; required: string; path: string }[] = [];

  (bundle.cityGroups ?? []).forEach((group, i) => claim('city_group', group.id, `cityGroups[${i}]`));

  (bundle.cities ?? []).forEach((city, i) => {
    const cityPath = `cities[${i}]`;
    claim('city', city.id, cityPath);
    if (city.timeZone != null && !isValidTimeZone(city.timeZone)) {
      fault(`${cityPath}.timeZone`, 'n’est pas un fuseau horaire IANA connu (par exemple Europe/Paris)');
    }
    if (city.cityGroupId != null) groupRefs.push({ id: city.cityGroupId, path: `${cityPath}.cityGroupId` });

    const wasteTypes = new Set<string>();
    (city.wasteTypes ?? []).forEach((wasteType, j) => {
      const p = `${cityPath}.wasteTypes[${j}]`;
      own('waste_type', wasteType.id, city.id, p);
      wasteTypes.add(wasteType.id);
      (wasteType.details ?? []).forEach((detail, k) => own('waste_type_detail', detail.id, wasteType.id, `${p}.details[${k}]`));
    });
    const checkWasteType = (id: string, p: string) => {
      if (!wasteTypes.has(id)) fault(p, `ne désigne aucun type de déchet de cette ville (${id})`);
    };

    (city.wasteCollectionPlaces ?? []).forEach((place, j) => {
      const p = `${cityPath}.wasteCollectionPlaces[${j}]`;
      own('collection_place', place.id, city.id, p);
      (place.collectionDays ?? []).forEach((day, k) => {
        const dp = `${p}.collectionDays[${k}]`;
        own('collection_day', day.id, place.id, dp);
        checkWasteType(day.wasteTypeId, `${dp}.wasteTypeId`);
        if (day.biweekly === true && day.startDate == null) {
          fault(`${dp}.startDate`, 'est obligatoire pour une collecte une semaine sur deux (biweekly)');
        }
      });
      (place.exceptions ?? []).forEach((exception, k) => {
        const ep = `${p}.exceptions[${k}]`;
        own('collection_exception', exception.id, place.id, ep);
        checkWasteType(exception.wasteTypeId, `${ep}.wasteTypeId`);
        if (exception.dateTo != null && Date.parse(exception.dateTo) < Date.parse(exception.dateFrom)) {
          fault(`${ep}.dateTo`, 'doit être égale ou postérieure à dateFrom');
        }
      });
      (place.attachedLocations ?? []).forEach((location, k) =>
        own('attached_location', location.id, place.id, `${p}.attachedLocations[${k}]`),
      );
    });

    (city.recyclingPoints ?? []).forEach((point, j) => own('recycling_point', point.id, city.id, `${cityPath}.recyclingPoints[${j}]`));

    const questions = new Set<string>();
    (city.quizQuestions ?? []).forEach((question, j) => {
      const p = `${cityPath}.quizQuestions[${j}]`;
      own('quiz_question', question.id, city.id, p);
      questions.add(question.id);
      checkWasteType(question.correctWasteTypeId, `${p}.correctWasteTypeId`);
    });

    (city.challenges ?? []).forEach((challenge, j) => {
      const p = `${cityPath}.challenges[${j}]`;
      own('challenge', challenge.id, city.id, p);
      if (challenge.requiredChallengeId != null) {
        requirements.push({ challengeId: challenge.id, required: challenge.requiredChallengeId, path: `${p}.requiredChallengeId` });
      }
      if (challenge.startDate != null && challenge.endDate != null && Date.parse(challenge.endDate) < Date.parse(challenge.startDate)) {
        fault(`${p}.endDate`, 'doit être égale ou postérieure à startDate');
      }
      if (challenge.badge) own('badge', challenge.badge.id, challenge.id, `${p}.badge`);
      (challenge.series ?? []).forEach((serie, k) => {
        const sp = `${p}.series[${k}]`;
        own('serie', serie.id, challenge.id, sp);
        const inSerie = new Set<string>();
        (serie.quizQuestionIds ?? []).forEach((questionId, q) => {
          const qp = `${sp}.quizQuestionIds[${q}]`;
          if (!questions.has(questionId)) fault(qp, `ne désigne aucune question de quiz de cette ville (${questionId})`);
          else if (inSerie.has(questionId)) fault(qp, `la question ${questionId} figure déjà dans cette série`);
          inSerie.add(questionId);
        });
      });
    });
  });

  const mdxChecks: Promise<void>[] = [];
  (bundle.blogPosts ?? []).forEach((post, i) => {
    const p = `blogPosts[${i}]`;
    claim('blog_post', post.id, p);
    groupRefs.push({ id: post.cityGroupId, path: `${p}.cityGroupId` });
    mdxChecks.push(
      checkMdx(post.content).then((problem) => {
        if (problem) fault(`${p}.content`, problem);
      }),
    );
  });

  const slugs = new Map<string, string>();
  (bundle.sites ?? []).forEach((site, i) => {
    const p = `sites[${i}]`;
    claim('site', site.id, p);
    const first = slugs.get(site.slug);
    if (first !== undefined) fault(`${p}.slug`, `le slug « ${site.slug} » est déjà celui de ${first}`);
    else slugs.set(site.slug, p);
    if (site.cityGroupId != null) groupRefs.push({ id: site.cityGroupId, path: `${p}.cityGroupId` });

    const pages = new Set<string>();
    const pageSlugs = new Map<string, string>();
    (site.pages ?? []).forEach((page, j) => {
      const pp = `${p}.pages[${j}]`;
      own('page', page.id, site.id, pp);
      pages.add(page.id);
      const firstPage = pageSlugs.get(page.slug);
      if (firstPage !== undefined) fault(`${pp}.slug`, `le slug « ${page.slug} » est déjà celui de ${firstPage}`);
      else pageSlugs.set(page.slug, pp);
    });

    const locations = new Map<string, string>();
    (site.menus ?? []).forEach((menu, j) => {
      const mp = `${p}.menus[${j}]`;
      own('menu', menu.id, site.id, mp);
      const firstMenu = locations.get(menu.location);
      if (firstMenu !== undefined) fault(`${mp}.location`, `l’emplacement « ${menu.location} » est déjà celui de ${firstMenu}`);
      else locations.set(menu.location, mp);
      const walk = (items: BundleMenuItem[] | null | undefined, parentPath: string) =>
        (items ?? []).forEach((item, k) => {
          const ip = `${parentPath}[${k}]`;
          own('menu_item', item.id, menu.id, ip);
          checkMenuLink(item, ip, pages, fault);
          walk(item.children, `${ip}.children`);
        });
      walk(menu.items, `${mp}.items`);
    });
  });

  const media: ValidatedMedia[] = [];
  for (const [i, entry] of (bundle.media ?? []).entries()) {
    const p = `media[${i}]`;
    claim('media', entry.id, p);
    const facts = await inspectMediaFile(options.baseDir, entry.path);
    if (typeof facts === 'string') {
      fault(`${p}.path`, facts);
      continue;
    }
    const claimed = entry.mimeType ?? null;
    if (facts.detectedMimeType) {
      if (claimed !== null && claimed !== facts.detectedMimeType) {
        fault(`${p}.mimeType`, `ne correspond pas au fichier, qui est de type ${facts.detectedMimeType}`);
        continue;
      }
    } else if (claimed === null) {
      fault(`${p}.mimeType`, 'est obligatoire pour un fichier qui n’est pas une image');
      continue;
    } else if (claimed.startsWith('image/')) {
      fault(`${p}.path`, `le fichier n’est pas une image lisible de type ${claimed}`);
      continue;
    }
    media.push({
      ...facts,
      id: entry.id,
      filename: entry.filename ?? path.basename(entry.path),
      mimeType: facts.detectedMimeType ?? (claimed as string),
    });
  }

  await Promise.all(mdxChecks);
  await checkAgainstDatabase(db, bundle, { groupRefs, requirements, owned, slugs: [...slugs.keys()] }, fault);

  if (faults.length > 0) throw new BundleValidationError(faults);
  return { bundle, media };
}

function checkMenuLink(
  item: BundleMenuItem,
  p: string,
  sitePages: Set<string>,
  fault: (path: string, message: string) => void,
): void {
  if (item.linkType === 'PAGE') {
    if (item.pageId == null) fault(`${p}.pageId`, 'est obligatoire quand linkType vaut PAGE');
    else if (!sitePages.has(item.pageId)) fault(`${p}.pageId`, `ne désigne aucune page de ce site (${item.pageId})`);
  } else if (item.pageId != null) {
    fault(`${p}.pageId`, 'doit être null quand linkType ne vaut pas PAGE');
  }
  if (item.linkType === 'EXTERNAL') {
    if (item.externalUrl == null) fault(`${p}.externalUrl`, 'est obligatoire quand linkType vaut EXTERNAL');
    else if (!URL.canParse(item.externalUrl)) fault(`${p}.externalUrl`, 'doit être une URL absolue (https://…)');
  } else if (item.externalUrl != null) {
    fault(`${p}.externalUrl`, 'doit être null quand linkType ne vaut pas EXTERNAL');
  }
}

/** Compiles MDX as the clients will; answers what is wrong, or null. `:::tip` lines are plain text to MDX. */
async function checkMdx(content: string): Promise<string | null> {
  try {
    await compile(content);
    return null;
  } catch (err) {
    const e = err as { reason?: string; message?: string; line?: number; column?: number };
    const where = e.line != null ? ` (ligne ${e.line}${e.column != null ? `, colonne ${e.column}` : ''})` : '';
    return `le contenu MDX ne compile pas${where} : ${e.reason ?? e.message ?? String(err)}`;
  }
}

async function checkAgainstDatabase(
  db: Kysely<DB>,
  bundle: Bundle,
  found: {
    groupRefs: Reference[];
    requirements: { challengeId: string; required: string; path: string }[];
    owned: Map<ChildTable, Owned[]>;
    slugs: string[];
  },
  fault: (path: string, message: string) => void,
): Promise<void> {
  // City groups: of the bundle, or already in the database.
  const bundleGroups = new Set((bundle.cityGroups ?? []).map((g) => g.id));
  const wanted = [...new Set(found.groupRefs.map((r) => r.id).filter((id) => !bundleGroups.has(id)))];
  const known = new Set(
    wanted.length === 0
      ? []
      : (await sql<{ id: string }>`SELECT id FROM city_group WHERE id = ANY(${wanted}::uuid[])`.execute(db)).rows.map((r) => r.id),
  );
  for (const ref of found.groupRefs) {
    if (!bundleGroups.has(ref.id) && !known.has(ref.id)) fault(ref.path, `ne désigne aucun groupe de villes du lot ni de la base (${ref.id})`);
  }

  // An id keeps its parent: moving a row to another city, site or menu would break the rows that point at it.
  for (const [table, entries] of found.owned) {
    const ids = entries.map((e) => e.id);
    const { column, label } = PARENT[table];
    const rows = (
      await sql<{ id: string; parent: string }>`
        SELECT id, ${sql.ref(column)} AS parent FROM ${sql.table(table)} WHERE id = ANY(${ids}::uuid[])
      `.execute(db)
    ).rows;
    const parentOf = new Map(rows.map((r) => [r.id, r.parent]));
    for (const entry of entries) {
      const parent = parentOf.get(entry.id);
      if (parent !== undefined && parent !== entry.parentId) {
        fault(childPath(entry.path, 'id'), `l’identifiant ${entry.id} appartient déjà à ${label} ${parent} dans la base ; un élément ne change pas de parent`);
      }
    }
  }

  // Site slugs are unique across the whole database.
  if (found.slugs.length > 0) {
    const bundleSites = new Map((bundle.sites ?? []).map((s, i) => [s.id, i]));
    const rows = (await sql<{ id: string; slug: string }>`SELECT id, slug FROM site WHERE slug = ANY(${found.slugs}::text[])`.execute(db)).rows;
    for (const row of rows) {
      if (bundleSites.has(row.id)) continue;
      const i = (bundle.sites ?? []).findIndex((s) => s.slug === row.slug);
      fault(`sites[${i}].slug`, `le slug « ${row.slug} » est déjà celui du site ${row.id} dans la base`);
    }
  }

  await checkRequirements(db, bundle, found.requirements, fault);
}

/**
 * requiredChallengeId must name a challenge of the bundle or of the database, and the requirements
 * must not loop. A challenge of an imported city that the bundle leaves out is removed (or disabled)
 * by the import, so it cannot be required.
 */
async function checkRequirements(
  db: Kysely<DB>,
  bundle: Bundle,
  requirements: { challengeId: string; required: string; path: string }[],
  fault: (path: string, message: string) => void,
): Promise<void> {
  if (requirements.length === 0) return;
  const next = new Map<string, string | null>();
  for (const city of bundle.cities ?? []) {
    for (const c of city.challenges ?? []) next.set(c.id, c.requiredChallengeId ?? null);
  }
  const importedCities = new Set((bundle.cities ?? []).map((c) => c.id));
  const stored = await db.selectFrom('challenge').select(['id', 'city_id', 'required_challenge_id']).execute();
  for (const row of stored) {
    if (next.has(row.id) || importedCities.has(row.city_id)) continue;
    next.set(row.id, row.required_challenge_id);
  }
  for (const r of requirements) {
    if (r.required === r.challengeId) {
      fault(r.path, 'un défi ne peut pas se requérir lui-même');
      continue;
    }
    if (!next.has(r.required)) {
      fault(r.path, `ne désigne aucun défi du lot ni de la base (${r.required})`);
      continue;
    }
    const chain = [r.challengeId];
    const visited = new Set(chain);
    let current: string | null | undefined = r.required;
    while (current != null && !visited.has(current)) {
      visited.add(current);
      chain.push(current);
      current = next.get(current);
    }
    if (current === r.challengeId) fault(r.path, `forme un cycle de défis requis (${[...chain, current].join(' → ')})`);
  }
}
