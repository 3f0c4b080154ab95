import path from 'node:path';
import { compile } from '@mdx-js/mdx';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { openingHoursSpecProblem } from '../kernel/opening-hours.ts';
import { BundleValidationError, childPath, type BundleFault } from './faults.ts';
import { inspectMediaFile, type MediaFileFacts } from './media-file.ts';
import type { Bundle, BundleMenuItem } from './schema.ts';
import { schemaFaults } from './schema-faults.ts';
import { checkAgainstDatabase, type ChildTable, type Owned, type Reference } from './validate-database.ts';
import { isValidTimeZone } from '../kernel/dates.ts';

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

type Kind = ChildTable | 'city_group' | 'city' | 'blog_post' | 'site' | 'media';

/** Keys that hold ids; their values are compared and stored in lowercase. */
const ID_KEYS = new Set(['id', 'cityGroupId', 'wasteTypeId', 'correctWasteTypeId', 'requiredChallengeId', 'pageId']);
/** Keys that hold lists of ids. */
const ID_LIST_KEYS = new Set(['quizQuestionIds', 'materials']);
/** Free-form objects whose keys are not ours. */
const OPAQUE_KEYS = new Set(['settings', 'theme']);

function lowercaseIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowercaseIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (ID_KEYS.has(key) && typeof v === 'string') out[key] = v.toLowerCase();
    else if (ID_LIST_KEYS.has(key) && Array.isArray(v)) out[key] = v.map((s) => (s as string).toLowerCase());
    else if (OPAQUE_KEYS.has(key)) out[key] = v;
    else out[key] = lowercaseIds(v);
  }
  return out;
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

  (bundle.cityGroups ?? []).forEach((group, i) => {
    claim('city_group', group.id, `cityGroups[${i}]`);
    // A SIRET is the SIREN followed by the establishment's number.
    if (group.siret != null && group.siren.length === 9 && !group.siret.startsWith(group.siren)) {
      fault(`cityGroups[${i}].siret`, `doit commencer par le SIREN du groupe (${group.siren})`);
    }
  });

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

    (city.recyclingPoints ?? []).forEach((point, j) => {
      const p = `${cityPath}.recyclingPoints[${j}]`;
      own('recycling_point', point.id, city.id, p);
      if (point.openingHoursSpec != null) {
        const problem = openingHoursSpecProblem(point.openingHoursSpec);
        if (problem) fault(`${p}.openingHoursSpec`, problem);
      }
      const taken = new Set<string>();
      (point.materials ?? []).forEach((wasteTypeId, k) => {
        const mp = `${p}.materials[${k}]`;
        if (taken.has(wasteTypeId)) fault(mp, `le type de déchet ${wasteTypeId} figure déjà dans cette liste`);
        else checkWasteType(wasteTypeId, mp);
        taken.add(wasteTypeId);
      });
    });

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
