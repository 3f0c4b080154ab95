import { parseCalendarDate } from '../../kernel/dates.ts';
import { asksCollection, unknownWords } from '../intents.ts';
import { normalizeText } from '../text-match.ts';
import { asksOpenNow } from '../opening.ts';
import { pointDayAsked, unknownPointWords } from '../point-hours.ts';
import { isSure, rankedOverride, sharesOneWordOnly } from '../guide-search.ts';
import type { MaterialEntry } from '../knowledge.ts';
import type { Question } from './model.ts';
import type { Reading, Rule } from './reading.ts';

/**
 * The third phase: the subject questions, from the points' state now and the service's contact to the calendar, the
 * points, the sorting guide and the consigns. Their order is the precedence between subjects a message may hold at
 * once; each rule's comment says why it comes where it does.
 */

/**
 * « La déchèterie est-elle ouverte ? »: yes or no now, and the next change, from the points' specs. « le couvercle
 * fermé » is a consign, not a point's hours: without a point's name, a consign comes first.
 */
export function openNow(r: Reading): Question | null {
  const otherDay = r.rawDay !== null && r.rawDay.day !== r.today;
  return asksOpenNow(r.intents.tokens, r.intents.points, otherDay) && (r.topics.length === 0 || r.intents.pointNoun) && r.aboutPoints()
    ? { kind: 'openNow' }
    : null;
}

/**
 * « jusqu'à quelle heure est ouvert le point d'apport de la gare ? » when no point's name holds « gare »: that point is
 * unknown, said so with the points there are, rather than every point's hours. First: it is about no point at all.
 */
export function unknownPoint(r: Reading): Question | null {
  return r.intents.points && r.material.kind === 'none' && unknownPointWords(r.knowledge, r.text) !== null ? { kind: 'unknownPoint' } : null;
}

/**
 * « les horaires de la déchèterie du Vern samedi prochain », « la déchèterie est ouverte demain ? »: the points'
 * hours on that day, not their whole text. « le samedi » asks the habit (pointDayAsked): the `points` rule answers it.
 * Before the calendar's rules, which would read « déchèterie » and the day as a collection.
 */
export function pointDay(r: Reading): Question | null {
  // « la borne textile » names a point, though « textile » is in the guide too.
  if (!r.intents.points || !r.aboutPoints() || (r.material.kind === 'found' && r.namedPoints().length === 0)) return null;
  const day = pointDayAsked(r.text, r.today);
  return day === null ? null : { kind: 'pointHours', pointIds: r.askedPoints(), day };
}

/** « comment joindre le service ? »: the group's contact block; a message about a collection or a stream is about that. */
export function contact(r: Reading): Question | null {
  return r.intents.contact && !r.intents.collection && r.wasteTypes.length === 0 ? { kind: 'contact' } : null;
}

/** « qu'est-ce que tu sais faire ? »: what the assistant answers, unless the message asks one of those things. */
export function help(r: Reading): Question | null {
  return r.intents.help && !r.intents.collection && !r.intents.material && r.wasteTypes.length === 0 && r.day === null ? { kind: 'help' } : null;
}

/**
 * « Et une bouteille de gaz, je la mets où ? »: a dangerous object (hazards.ts) that no entry of its own family in the
 * guide answers is said dangerous, with where it goes; never the nearest other object (« bouteille de vin »). Before
 * the calendar's rules: « quand passe le camion pour les piles ? » has no bin to be put in either.
 */
export function hazard(r: Reading): Question | null {
  if (r.hazard === null || r.material.kind !== 'none') return null;
  const ranked = r.ranked();
  return ranked !== null && isSure(ranked) ? null : { kind: 'hazard', family: r.hazard };
}

/** Kinds after which « elle est reportée ? » is about the same collections. */
const CALENDAR_KINDS: Question['kind'][] = ['nextCollections', 'collectionsOnDay', 'collectionMoved', 'holidays', 'schedule'];

/**
 * « la collecte de Noël est décalée à quel jour ? », « le ramassage du 1er mai est maintenu ? », « quand passe le
 * camion après le 25 décembre ? », « elle est reportée quand ? »: what became of the collections of that day (moved,
 * cancelled, kept), or the changes ahead. Without a day or a waste type of its own, it follows on the conversation's
 * last calendar question (its day, its waste types). Before `collectionsOnDay`, which would read the day alone.
 */
export function collectionMoved(r: Reading): Question | null {
  // « et le verre ? », « et le 1er janvier ? » after such a question ask the same of another stream or day.
  const continues = r.followUp && r.state.last?.kind === 'collectionMoved';
  const asks = r.intents.moved || continues || (r.intents.after && r.day !== null && (r.collection || r.collectionTypes.length > 0));
  if (!asks || r.namedMaterial) return null;
  const last = r.state.last && CALENDAR_KINDS.includes(r.state.last.kind) ? r.state.last : null;
  if (!(r.day !== null || r.collection || r.collectionTypes.length > 0 || last)) return null;
  if (r.nowhere) return { kind: 'notCollectedAnywhere', wasteTypes: r.collectionTypes };
  const follows = last !== null && (continues || (r.day === null && r.collectionTypes.length === 0));
  const day = r.day?.day ?? (follows && last.day ? parseCalendarDate(last.day) : null);
  const types = r.collectionTypes.length > 0 ? r.collectionTypes : follows ? r.knowledge.city.wasteTypes.filter((w) => last.wasteTypeIds.includes(w.id)) : [];
  return { kind: 'collectionMoved', day, wasteTypes: types, withHolidayRule: r.day?.named === true || r.intents.guidance.includes('holidays') };
}

/** "est-ce que ça passe le 25 décembre ?", "et à Noël ?": what the calendar holds that day. */
export function collectionsOnDay(r: Reading): Question | null {
  if (r.day === null || !(r.collection || r.day.named || r.collectionTypes.length > 0 || !r.ownIntent)) return null;
  if (r.nowhere) return { kind: 'notCollectedAnywhere', wasteTypes: r.collectionTypes };
  // « les collectes de Noël ? » without a place: the city's holiday rule, and which sectors to choose from.
  if (r.day.named && !r.place) return { kind: 'holidays' };
  return { kind: 'collectionsOnDay', day: r.day.day, wasteTypes: r.collectionTypes, withHolidayRule: r.day.named || r.intents.guidance.includes('holidays') };
}

/** « et les jours fériés ? »: the city's holiday rule and the exceptions ahead; « sapin de Noël » is an object. */
export function holidays(r: Reading): Question | null {
  return r.intents.guidance.includes('holidays') && !r.namedMaterial ? { kind: 'holidays' } : null;
}

/** « le bac jaune c'est toutes les semaines ? »: the place's weekly days. */
export function schedule(r: Reading): Question | null {
  const aboutBins = r.wasteTypes.length > 0 || r.intents.collection || r.intents.tokens.includes('bac');
  return r.intents.frequency && aboutBins && r.topics.length === 0 ? { kind: 'schedule' } : null;
}

/** "Quand sortir les bacs ?" asks the rule; "quand sortir la poubelle jaune ?" asks a date too. */
export function nextCollections(r: Reading): Question | null {
  const asks = asksCollection({ ...r.intents, collection: r.collection }, r.collectionTypes.length > 0 || r.followUp);
  if (!asks || (r.topics.length > 0 && r.collectionTypes.length === 0)) return null;
  // Glass banks are the same for every sector: no need to ask which one.
  if (r.nowhere && !r.place) return { kind: 'notCollectedAnywhere', wasteTypes: r.collectionTypes };
  if (r.place) {
    const unknown = r.collectionTypes.length === 0 && r.material.kind === 'none' ? unknownWords(r.intents, r.knowledge) : [];
    if (unknown.length > 0) return { kind: 'unknownStream' };
  }
  return { kind: 'nextCollections', wasteTypes: r.collectionTypes, topics: r.topics };
}

/** « qu'est-ce qu'on peut déposer à la déchèterie de Lavallot ? »: what a named point takes. */
export function pointMaterials(r: Reading): Question | null {
  if (!r.intents.points || !r.intents.material || r.material.kind === 'found') return null;
  const points = r.namedPoints();
  return points.length > 0 ? { kind: 'pointMaterials', pointIds: points.map((p) => p.id) } : null;
}

/** « Quels sont les points de recyclage de la commune ? »: the points, not the recyclable stream. */
export function everyPoint(r: Reading): Question | null {
  if (!r.intents.points || !r.intents.pointNoun || r.material.kind === 'found') return null;
  return r.intents.allPoints || /\bquels? sont\b|\bliste\b/.test(normalizeText(r.text)) ? { kind: 'points', pointIds: r.askedPoints() } : null;
}

/**
 * « où jeter une capsule de café ? »: the guide's entry. The ranked search of the sorting guide (the public search's)
 * has the last word on what the object is: a sure hit of another material than the phrase match (« capsule de café »
 * is not « Café (marc) ») wins.
 */
export function material(r: Reading): Question | null {
  if (r.material.kind !== 'found' || !(r.intents.material || !r.intents.points)) return null;
  const override = rankedOverride(r.material, r.ranked());
  if (override) return guessed(r, override.entry, override.guess);
  return { kind: 'material', entry: r.material.entry, guess: false };
}

/** "Où déposer le verre ?": a stream named as such is better answered by the stream than by a list of objects. */
export function streamBeforeObjects(r: Reading): Question | null {
  return r.material.kind === 'ambiguous' && r.wasteTypes.length > 0 && !r.intents.points ? { kind: 'wasteTypes', wasteTypes: r.wasteTypes } : null;
}

/** « où jeter une bouteille ? »: the guide holds it in several streams, each named. */
export function ambiguousMaterial(r: Reading): Question | null {
  return r.material.kind === 'ambiguous' && (r.intents.material || !r.intents.points) ? { kind: 'ambiguousMaterial', entries: r.material.entries } : null;
}

/**
 * A guess is no answer when it shares a single word with the question and leaves another unexplained (« bouteille de
 * gaz » is not « Bouteille en verre (eau, vin) »): what was understood is said, and the citizen asked.
 */
function guessed(r: Reading, entry: MaterialEntry, guess: boolean): Question {
  return guess && sharesOneWordOnly(r.knowledge, r.text, entry) ? { kind: 'unsureMaterial', entry } : { kind: 'material', entry, guess };
}

/** « quand sortir ma poubelle ? », « comment présenter le bac ? »: the city's consigns. */
export function consigns(r: Reading): Question | null {
  return r.topics.length > 0 ? { kind: 'guidance', topics: r.topics } : null;
}

/** « les horaires de la déchèterie ? »: the points named, else every point, with their hours. */
export function points(r: Reading): Question | null {
  return r.intents.points && r.aboutPoints() ? { kind: 'points', pointIds: r.askedPoints() } : null;
}

/** « le bac jaune ? »: what the stream takes, and where or when it goes. */
export function wasteTypes(r: Reading): Question | null {
  return r.wasteTypes.length > 0 ? { kind: 'wasteTypes', wasteTypes: r.wasteTypes } : null;
}

/**
 * An object the phrase match did not find: the ranked search's sure hit, else the guide's nearest entry, else its
 * guess said as such, else a passage of the group's pages, else « not in the guide ».
 */
export function objectOfGuide(r: Reading): Question | null {
  if (!(r.intents.material || r.intents.wasteWord || r.material.kind === 'near')) return null;
  const ranked = r.ranked();
  if (ranked !== null && isSure(ranked)) return { kind: 'material', entry: ranked.entry, guess: false };
  if (r.material.kind === 'near') return { kind: 'nearMaterial', entry: r.material.entry };
  if (ranked) return guessed(r, ranked.entry, true);
  const passage = r.passage();
  return passage ? { kind: 'content', passage } : { kind: 'unknownMaterial' };
}

/** « ça passe quand ? » without a place: the next collections, once the place is given. */
export function collectionWithoutSubject(r: Reading): Question | null {
  return r.intents.collection && !r.place ? { kind: 'nextCollections', wasteTypes: [], topics: [] } : null;
}

export const TOPIC_RULES: readonly Rule[] = [
  unknownPoint,
  openNow,
  pointDay,
  contact,
  help,
  hazard,
  collectionMoved,
  collectionsOnDay,
  holidays,
  schedule,
  nextCollections,
  pointMaterials,
  everyPoint,
  material,
  streamBeforeObjects,
  ambiguousMaterial,
  consigns,
  points,
  wasteTypes,
  objectOfGuide,
  collectionWithoutSubject,
];
