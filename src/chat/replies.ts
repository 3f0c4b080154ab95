import {
  frenchDate,
  guidanceText,
  nextCollectionFacts,
  recyclingPointsOfWasteType,
  type CityKnowledge,
  type GuidanceTopic,
  type MaterialEntry,
  type Place,
  type WasteType,
} from './knowledge.ts';
import { FRENCH_WEEKDAYS } from '../kernel/dates.ts';
import type { CityApi } from '../domain/city-model/schemas.ts';
import type { AddressMatch } from '../domain/address-match.ts';
import { addedNote, changesAhead, listed, movedFrom, reasonOf } from './collection-changes.ts';
import type { ReportedType } from './reports.ts';

/**
 * The built-in assistant's French sentences. Every date, place, address, hour and rule in them is taken from
 * the city's data; the fixed wording only says where a fact comes from or that the data holds none.
 */

export const OFFER_AGENT = 'Si vous le souhaitez, écrivez « parler à un agent » et un conseiller prendra le relais.';


export function greeting(k: CityKnowledge, thanksOnly: boolean): string {
  const opening = thanksOnly ? 'Avec plaisir !' : `Bonjour ! Je suis l’assistant de la collecte des déchets de ${k.city.name}.`;
  return `${opening} ${capabilities()}`;
}

/** What the assistant can do; `offerAgent` false when the caller offers an agent in its own words. */
function capabilities(offerAgent = true): string {
  return (
    'Je peux vous donner la prochaine date de collecte de chaque poubelle, vous dire où jeter un objet, ' +
    'vous indiquer les points de collecte avec leur adresse et leurs horaires, et rappeler les consignes ' +
    '(sortir, présenter et rentrer les bacs, calendrier, jours fériés).' +
    (offerAgent ? ' Vous pouvez aussi demander à parler à un agent.' : '')
  );
}

export function help(k: CityKnowledge): string {
  return `Je suis l’assistant de la collecte des déchets de ${k.city.name}. ${capabilities()}`;
}

export function handoff(k: CityKnowledge): string {
  return `Je transmets votre demande à un agent du service de collecte de ${k.city.name}. Un conseiller vous répondra ici dès que possible ; vous pouvez déjà décrire votre question.`;
}

export function notInData(k: CityKnowledge): string {
  return `Je n’ai pas cette information dans les données de ${k.city.name}, et je préfère ne pas deviner. Je peux vous renseigner sur les jours de collecte, le tri des déchets, les points de collecte et les consignes de sortie des bacs. ${OFFER_AGENT}`;
}

/** A question outside the assistant's subject, or an attempt to change its instructions: it says what it does. */
export function outOfScope(k: CityKnowledge): string {
  return `Je suis l’assistant de la collecte des déchets de ${k.city.name} : je ne peux pas répondre à cette question. ${capabilities(false)} ${OFFER_AGENT}`;
}

/** Emoji or punctuation only. */
export function notUnderstood(k: CityKnowledge): string {
  return `Je n’ai pas compris votre message. Je suis l’assistant de la collecte des déchets de ${k.city.name}. ${capabilities()}`;
}

export function frenchOnly(k: CityKnowledge): string {
  return `Je réponds uniquement en français. Je suis l’assistant de la collecte des déchets de ${k.city.name}. ${capabilities(false)} ${OFFER_AGENT}`;
}

/** The guide has no entry as typed; the closest one, said as such (the citizen judges). */
export function nearMaterial(k: CityKnowledge, entry: MaterialEntry): string {
  return `Le guide de tri de ${k.city.name} ne cite pas exactement cet objet. L’objet le plus proche est :\n${material(k, entry)}\nSi ce n’est pas le même objet, écrivez « parler à un agent » et un conseiller prendra le relais.`;
}

/** The ranked search's best hit is only a typo or trigram match: a guess, said as one (never as the thing named). */
export function guessedMaterial(k: CityKnowledge, entry: MaterialEntry): string {
  return `Je pense que vous cherchez « ${entry.material} » : le guide de tri de ${k.city.name} ne cite pas exactement ce que vous avez écrit.\n${material(k, entry)}\nSi ce n’est pas cet objet, précisez-le avec d’autres mots, ou écrivez « parler à un agent ».`;
}

/** The guide's nearest entry is another object (one word in common): said as such, never as where to put it. */
export function unsureMaterial(k: CityKnowledge, entry: MaterialEntry): string {
  return `Le guide de tri de ${k.city.name} ne cite pas cet objet, et l’objet le plus proche, « ${entry.material} » (${entry.wasteType.name}), n’est pas le même\u00a0: je préfère ne pas deviner. Précisez l’objet avec d’autres mots, ou cherchez-le dans le guide de tri de ${k.city.name}. ${OFFER_AGENT}`;
}

export function unknownMaterial(k: CityKnowledge): string {
  return `Je ne trouve pas cet objet dans le guide de tri de ${k.city.name}, et je préfère ne pas deviner. Essayez un autre mot (par exemple « bouteille en plastique » ou « épluchures »). ${OFFER_AGENT}`;
}

/** A collection of a stream the data does not hold ("encombrants"): what is collected there, without dates nobody asked for. */
export function unknownStream(k: CityKnowledge, place: Place): string {
  const collected = k.city.wasteTypes.filter((w) => place.collectionDays.some((d) => d.wasteTypeId === w.id)).map((w) => w.name);
  const list = collected.length ? ` Les collectes en porte-à-porte à ${place.name} sont : ${collected.join(', ')}.` : '';
  return `Je ne trouve pas ce type de collecte dans les données de ${k.city.name}.${list} ${OFFER_AGENT}`;
}

export function placeQuestion(k: CityKnowledge): string {
  const names = k.city.wasteCollectionPlaces.map((p, i) => `${i + 1}. ${p.name}`).join('\n');
  if (!names) return `Les données de ${k.city.name} ne contiennent aucun secteur de collecte. ${OFFER_AGENT}`;
  return `Dans quel secteur de ${k.city.name} habitez-vous ? Les jours de collecte en dépendent :\n${names}\nRépondez par le nom du secteur, son numéro ou le nom de votre rue.`;
}

/**
 * A street shared between sectors, given without a number (or with one no rule holds): which numbers go where, and
 * a question for the number. `matches` are one street's, one per sector (knowledge.ts addressMentioned).
 */
export function streetShared(matches: AddressMatch<Place>[]): string {
  const street = matches[0].name;
  const lines = matches.map((m) => `• ${m.label.slice(street.length + 2)}\u00a0: secteur ${m.place.name}`);
  return (
    `«\u00a0${street}\u00a0» est partagée entre plusieurs secteurs de collecte\u00a0:\n${lines.join('\n')}\n` +
    `Quel est votre numéro\u202f? Écrivez-le avec la rue (par exemple «\u00a012 ${street}\u00a0»).`
  );
}

export function placeNoted(place: Place): string {
  return `C’est noté : secteur ${place.name}.`;
}


/** Next collections at a newly chosen place. */
export function placeSummary(k: CityKnowledge, place: Place, now: Date): string {
  return nextCollections(k, place, null, now);
}

function dayDescription(place: Place, wasteType: WasteType): string | null {
  return place.collectionDays.find((d) => d.wasteTypeId === wasteType.id && d.description)?.description ?? null;
}

/**
 * The next collection of each waste type at the place. A single type not collected door to door is explained
 * with its description and drop-off points, unless `explained` says the caller has just given them.
 */
export function nextCollections(k: CityKnowledge, place: Place, wasteTypes: WasteType[] | null, now: Date, explained = false): string {
  const facts = nextCollectionFacts(k, place, wasteTypes, now);
  if (facts.length === 0) return `Les données ne prévoient aucune collecte à ${place.name} (${k.city.name}). ${OFFER_AGENT}`;
  const lines: string[] = [];
  const single = facts.length === 1;
  lines.push(single ? `À ${place.name} (${k.city.name}) :` : `Prochaines collectes à ${place.name} (${k.city.name}) :`);
  const notes = new Map<string, string>();
  for (const { wasteType, next, cancelled } of facts) {
    const collected = place.collectionDays.some((d) => d.wasteTypeId === wasteType.id);
    if (next) {
      const holiday = next.holiday ? ` (${next.holiday})` : '';
      const change = next.status === 'MOVED' ? `, ${movedFrom(next)}` : next.status === 'ADDED' ? `, ${addedNote(next)}` : '';
      lines.push(`- ${wasteType.name} : ${frenchDate(next.date)}${holiday}${change}`);
      if (single) {
        const description = dayDescription(place, wasteType);
        if (description) lines.push(description);
      }
    } else if (!collected) {
      lines.push(`- ${wasteType.name} : pas de collecte en porte-à-porte prévue dans ce secteur.`);
      if (single && !explained) {
        if (wasteType.description) lines.push(wasteType.description);
        const points = recyclingPointsOfWasteType(k, wasteType);
        if (points.length) lines.push(pointList(points));
      }
    } else {
      lines.push(`- ${wasteType.name} : aucune collecte prévue dans les douze prochains mois.`);
    }
    for (const c of cancelled) {
      // A holiday rule's cancellation has no exception: its note names the holiday, and differs from day to day.
      const key = c.exceptionName || c.exceptionDescription ? `${c.exceptionName ?? ''}|${c.exceptionDescription ?? ''}` : `${c.note ?? ''}|${c.date}`;
      if (!notes.has(key)) {
        const name = c.exceptionName ?? (c.exceptionDescription ? null : reasonOf(c)?.text);
        const label = name ? `${name} – ` : '';
        notes.set(key, `${label}pas de collecte « ${c.wasteTypeName} » le ${frenchDate(c.date)}${c.exceptionDescription ? ` : ${c.exceptionDescription}` : '.'}`);
      }
    }
  }
  if (notes.size) lines.push(...[...notes.values()].map((n) => `À noter : ${n}`));
  return lines.join('\n');
}

export function material(k: CityKnowledge, entry: MaterialEntry): string {
  const lines = [`« ${entry.material} » : ${entry.wasteType.name}.`];
  if (entry.instructions) lines.push(entry.instructions);
  if (entry.wasteType.instructions) lines.push(`Consigne « ${entry.wasteType.name} » à ${k.city.name} : ${entry.wasteType.instructions}`);
  const points = recyclingPointsOfWasteType(k, entry.wasteType);
  if (points.length) lines.push(pointList(points));
  return lines.join('\n');
}

export function ambiguousMaterial(entries: MaterialEntry[]): string {
  const lines = entries.slice(0, 8).map((e) => `- ${e.material} : ${e.wasteType.name}`);
  return `Plusieurs objets du guide de tri correspondent :\n${lines.join('\n')}\nPrécisez lequel, si besoin.`;
}

export function wasteTypes(k: CityKnowledge, types: WasteType[], place: Place | null, now: Date): string {
  const parts: string[] = [];
  for (const w of types) {
    const lines = [`${w.name} :`];
    if (w.description) lines.push(w.description);
    if (w.instructions) lines.push(w.instructions);
    const points = recyclingPointsOfWasteType(k, w);
    if (points.length) lines.push(pointList(points));
    parts.push(lines.join('\n'));
  }
  if (place) parts.push(nextCollections(k, place, types, now, true));
  return parts.join('\n');
}

/** A collection question about waste types that no place of the city collects door to door: no place needed. */
export function notCollectedAnywhere(k: CityKnowledge, types: WasteType[]): string {
  const parts: string[] = [];
  for (const w of types) {
    const lines = [`${w.name} : pas de collecte en porte-à-porte à ${k.city.name}, dans aucun secteur.`];
    if (w.description) lines.push(w.description);
    if (w.instructions) lines.push(w.instructions);
    const points = recyclingPointsOfWasteType(k, w);
    if (points.length) lines.push(pointList(points));
    parts.push(lines.join('\n'));
  }
  return parts.join('\n');
}

function pointList(points: CityApi['recyclingPoints']): string {
  return points
    .map((p) => `- ${p.name} — ${p.address ?? 'adresse non renseignée'}. Horaires : ${p.openingHours ?? 'non renseignés'}`)
    .join('\n');
}


/** The points given by id, in the city's order: their address and hours. */
export function recyclingPointsById(k: CityKnowledge, ids: string[]): string {
  if (k.city.recyclingPoints.length === 0) return `Les données de ${k.city.name} ne listent aucun point de collecte. ${OFFER_AGENT}`;
  const wanted = new Set(ids);
  const points = k.city.recyclingPoints.filter((p) => wanted.has(p.id));
  return `Points de collecte à ${k.city.name} :\n${pointList(points.length > 0 ? points : k.city.recyclingPoints)}`;
}

/** What each point given by id takes (docs/api.md, recycling points and open data's `materials`), by waste type name. */
export function pointMaterials(k: CityKnowledge, ids: string[]): string {
  const names = new Map(k.city.wasteTypes.map((w) => [w.id, w.name]));
  const taken = new Map(k.points.map((p) => [p.id, p.wasteTypeIds]));
  return k.city.recyclingPoints
    .filter((p) => ids.includes(p.id))
    .map((p) => {
      const types = (taken.get(p.id) ?? []).map((id) => names.get(id)).filter((n): n is string => Boolean(n));
      const hours = p.openingHours ? ` Horaires : ${p.openingHours}` : '';
      return types.length > 0
        ? `${p.name} accepte : ${types.join(', ')}.${hours}`
        : `Les données de ${k.city.name} ne disent pas ce que ${p.name} accepte.${hours}`;
    })
    .join('\n');
}

/** A passage of the city's pages or posts, quoted as written, with its title and where to read it. */
export function quote(passage: { title: string; path: string; text: string }): string {
  return `D’après «\u00a0${passage.title}\u00a0» (${passage.path})\u00a0:\n«\u00a0${passage.text}\u00a0»`;
}

const TOPIC_LABELS: Record<GuidanceTopic, string> = {
  outOfTheBins: 'Sortie des bacs',
  presentationOfBins: 'Présentation des bacs',
  returnOfBins: 'Rentrée des bacs',
  respectOfCalendar: 'Calendrier de collecte',
  holidays: 'Jours fériés',
};

const TOPIC_SUBJECTS: Record<GuidanceTopic, string> = {
  outOfTheBins: 'la sortie des bacs',
  presentationOfBins: 'la présentation des bacs',
  returnOfBins: 'la rentrée des bacs',
  respectOfCalendar: 'le respect du calendrier',
  holidays: 'les jours fériés',
};

export function guidance(k: CityKnowledge, topic: GuidanceTopic): string {
  const text = guidanceText(k, topic);
  if (!text) return `Les données de ${k.city.name} ne contiennent pas de consigne sur ${TOPIC_SUBJECTS[topic]}. ${OFFER_AGENT}`;
  return `${TOPIC_LABELS[topic]} à ${k.city.name} : ${text}`;
}

export function weeklySchedule(k: CityKnowledge, place: Place): string {
  const byType = new Map<string, string[]>();
  const days = [...place.collectionDays].sort((a, b) => FRENCH_WEEKDAYS.indexOf(a.name as never) - FRENCH_WEEKDAYS.indexOf(b.name as never));
  for (const d of days) {
    const list = byType.get(d.wasteTypeId) ?? [];
    list.push(d.biweekly ? `${d.name} (une semaine sur deux)` : d.name);
    byType.set(d.wasteTypeId, list);
  }
  const lines = k.city.wasteTypes.filter((w) => byType.has(w.id)).map((w) => `- ${w.name} : ${byType.get(w.id)!.join(', ')}`);
  return `Jours de collecte à ${place.name} :\n${lines.join('\n')}`;
}

export function holidays(k: CityKnowledge, place: Place | null, now: Date): string {
  const parts = [guidance(k, 'holidays')];
  if (place) {
    const lines = changesAhead(k, place, null, now);
    parts.push(lines.length > 0 ? `Changements prévus à ${place.name} dans les deux prochains mois :\n${listed(lines)}` : `Aucun changement n’est prévu à ${place.name} dans les deux prochains mois.`);
  } else if (k.city.wasteCollectionPlaces.length > 1) {
    parts.push(`Indiquez votre secteur (${k.city.wasteCollectionPlaces.map((p) => p.name).join(', ')}) pour connaître les reports qui vous concernent.`);
  }
  return parts.join('\n');
}

/** The request forms a report points to (docs/api.md, resident requests): the form's name and what helps the service. */
const REPORT_FORMS: Record<ReportedType, { form: string; hint: string }> = {
  'collecte-non-effectuee': {
    form: 'Collecte non effectuée',
    hint: 'Indiquez le jour et le bac concernés\u00a0: le signalement est ouvert à partir de midi le jour de la collecte, pendant 48\u00a0heures.',
  },
  'bac-endommage': { form: 'Bac endommagé', hint: 'Précisez la partie abîmée\u00a0; une photo aide le service.' },
  'bac-vole': { form: 'Bac volé ou disparu', hint: 'Le service vous dira comment il est remplacé.' },
  'demande-bac': { form: 'Demande de bac', hint: 'Précisez s’il s’agit d’un premier bac, d’une autre taille ou d’un bac de plus.' },
  'point-apport-plein': { form: 'Point d’apport plein', hint: 'Choisissez le point concerné dans la liste des points de collecte.' },
  'depot-sauvage': { form: 'Dépôt sauvage', hint: 'Indiquez l’endroit (« Me localiser » ou l’adresse)\u00a0; une photo aide le service.' },
};

/**
 * The app's path of a report's form, pre-filled with the city, and the place when it counts (web/src/main.tsx,
 * `/signaler`; the app turns such paths in the assistant's messages into links).
 */
export function reportFormPath(cityId: string, typeCode: ReportedType, placeId: string | null): string {
  const query = new URLSearchParams({ type: typeCode, cityId });
  if (placeId) query.set('placeId', placeId);
  return `/signaler?${query}`;
}

/** A report the assistant does not file: where the resident files it, with the place it knows, and how it is followed. */
export function report(k: CityKnowledge, typeCode: ReportedType, place: Place | null): string {
  const { form, hint } = REPORT_FORMS[typeCode];
  const placed = place !== null && typeCode !== 'point-apport-plein' && typeCode !== 'depot-sauvage';
  const where = placed ? ` pour ${place.name}` : '';
  return (
    `Je ne peux pas enregistrer ce signalement moi-même, mais vous pouvez le faire en deux minutes\u00a0: dans l’application, ` +
    `«\u00a0Signaler un problème\u00a0», puis «\u00a0${form}\u00a0»${where}. ${hint} ` +
    `Le service de collecte de ${k.city.name} vous répondra, et vous suivrez votre demande dans «\u00a0Mes demandes\u00a0». ` +
    `Le formulaire, déjà rempli de ce que je sais\u00a0: ${reportFormPath(k.city.id, typeCode, placed ? place.id : null)}`
  );
}
