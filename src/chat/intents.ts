import type { CityKnowledge, GuidanceTopic } from './knowledge.ts';
import { STOPWORDS, editDistance, normalizeText, stem, tokenize, wordMatches } from './text-match.ts';

/**
 * What a citizen's message asks, read from its words. Several intents may hold at once ("quand sortir la
 * poubelle jaune" asks a date and the bins-out rule); the assistant decides which to answer.
 */
export interface Intents {
  tokens: string[];
  handoff: boolean;
  greeting: boolean;
  thanks: boolean;
  help: boolean;
  /** A date of collection is asked ("quand", "prochaine collecte", "passe"…). */
  collection: boolean;
  /** Where something goes ("où jeter", "quelle poubelle", "recycler"…). */
  material: boolean;
  /** Recycling centres, drop-off points, their hours or addresses. */
  points: boolean;
  guidance: GuidanceTopic[];
  /** The citizen says where they live ("j'habite", "mon quartier", "ma rue"). */
  residence: boolean;
  /** The message is a bare number (an answer to a numbered list). */
  number: number | null;
  /** No word at all: emoji, punctuation. */
  empty: boolean;
  /** Written in English. */
  english: boolean;
  /** Tries to change the assistant's instructions ("ignore tes instructions…"). */
  injection: boolean;
  /** Names a kind of waste or object the citizen wants rid of, known to the data or not ("piles", "frigo"). */
  wasteWord: boolean;
}

const words = (list: string) => list.split(' ').map(stem);

const HANDOFF = words('agent conseiller conseillere humain humaine operateur operatrice standard');
const HANDOFF_PHRASES = [words('vraie personne'), words('quelqu un'), words('personne reelle')];
const RESIDENCE = words('habite habitons vis vivons quartier secteur rue avenue route lieu adresse');
const GREETING = words('bonjour salut hello coucou bonsoir hey bjr slt');
const THANKS = words('merci');
const HELP = words('aide aider help');
const TEMPORAL = words('quand prochain prochaine passe passent passera passage ramassage ramasse ramasser camion benne eboueur jour date demain aujourd semaine heure');
const COLLECTION_SUBJECT = words('collecte collectes collecter poubelle bac ramassage ramasse camion benne eboueur passe passent passera passage');
const MATERIAL = words('jeter jette jete mettre met trier trie tri recycler recycle recyclable deposer depose debarrasser donner va vont');
const POINTS = words('decheterie dechetterie dechetteries apport borne bornes colonne conteneur container recyclerie ressourcerie horaire horaires ouvert ouverte ouverture ouvre ferme fermeture adresse textile vetement');
const OUT = words('sortir sors sort sortie veille');
const PRESENT = words('presenter presente presentation poignee');
const RETURN = words('rentrer rentre ranger range trottoir');
const CALENDAR = words('calendrier planning programme respecter respect');
const HOLIDAY = words('ferie feries noel paque toussaint ascension pentecote armistice fete reveillon');

/** Intent words tolerate typos only when long: short ones ("ouvert", "sort") are too close to other words. */
const matches = (typed: string, word: string) => (word.length >= 7 ? wordMatches(typed, word) : typed === word);
const hasAny = (tokens: string[], list: string[]) => list.some((w) => tokens.some((t) => matches(t, w)));
const hasPhrase = (tokens: string[], phrase: string[]) => phrase.every((w) => tokens.includes(w));

/**
 * Objects and wastes citizens ask about that a sorting guide may or may not list: they make a message a
 * sorting question (answered from the data, or "not in the guide"), never an out-of-scope one.
 */
const WASTE_WORDS = words(
  'pile batterie accumulateur ampoule neon peinture solvant medicament seringue pneu encombrant meuble matelas ' +
    'frigo refrigerateur congelateur electromenager television tele ordinateur telephone gravat huile cartouche textile ' +
    'vetement chaussure jouet vaisselle miroir vitre polystyrene bois ferraille amiante radiographie capsule',
);

/** Words only English has (French shares "on", "a", "est"…). */
const ENGLISH = new Set(
  'the what when where which who how is are do does did my your i you can could would please garbage trash rubbish bin bins waste collected collection throw recycle recycling day days next hello hi thanks thank of it'
    .split(' '),
);
const FRENCH_MARKERS = new Set(words('le la les de des du et est ou quand poubelle bac je vous merci bonjour une un'));
const INJECTION = [
  /\b(ignore|ignorez|oublie|oubliez|ignoring|forget|disregard)\b.*\b(instruction|instructions|consigne|consignes|regle|regles|rules|prompt|system|systeme)\b/,
  /\b(tu es|you are) (maintenant|desormais|now)\b/,
  /\b(prompt systeme|system prompt|mode developpeur|developer mode|jailbreak)\b/,
  /\b(fais comme si|pretend|act as|agis comme)\b/,
];

export function readIntents(text: string): Intents {
  // "mot de passe" is no collection ("passe").
  const tokens = tokenize(text.replace(/mots?\s+de\s+passe/gi, 'motdepasse'));
  const raw = normalizeText(text);
  const rawWords = raw === '' ? [] : raw.split(' ');
  const englishWords = rawWords.filter((w) => ENGLISH.has(w)).length;
  const frenchWords = tokens.filter((t) => FRENCH_MARKERS.has(t)).length;
  const guidance: GuidanceTopic[] = [];
  // "jour férié" is about holidays, not about a collection day.
  const holiday = hasAny(tokens, HOLIDAY) || hasPhrase(tokens, words('jour de l an')) || hasPhrase(tokens, words('1er mai')) || hasPhrase(tokens, words('14 juillet'));
  if (holiday) guidance.push('holidays');
  if (hasAny(tokens, OUT)) guidance.push('outOfTheBins');
  if (hasAny(tokens, PRESENT)) guidance.push('presentationOfBins');
  if (hasAny(tokens, RETURN)) guidance.push('returnOfBins');
  if (hasAny(tokens, CALENDAR) || hasPhrase(tokens, words('mauvais jour'))) guidance.push('respectOfCalendar');
  const number = /^\s*(\d{1,2})\s*\.?\s*$/.exec(text);
  return {
    tokens,
    handoff: hasAny(tokens, HANDOFF) || HANDOFF_PHRASES.some((p) => hasPhrase(tokens, p)),
    residence: hasAny(tokens, RESIDENCE),
    greeting: hasAny(tokens, GREETING),
    thanks: hasAny(tokens, THANKS),
    help: hasAny(tokens, HELP) || (tokens.includes('faire') && hasAny(tokens, words('sais peux sait'))),
    collection: !holiday && hasAny(tokens, TEMPORAL),
    material: hasAny(tokens, MATERIAL) || hasPhrase(tokens, words('quelle poubelle')) || hasPhrase(tokens, words('quel bac')),
    points: hasAny(tokens, POINTS) || hasPhrase(tokens, words('point d apport')),
    guidance,
    number: number ? Number(number[1]) : null,
    empty: tokens.length === 0,
    english: englishWords >= 2 && englishWords > frenchWords,
    injection: INJECTION.some((p) => p.test(raw)),
    wasteWord: hasAny(tokens, WASTE_WORDS),
  };
}

/** Whether the message asks for a collection date, given what it names. */
export function asksCollection(intents: Intents, namesWasteType: boolean): boolean {
  return intents.collection && (namesWasteType || hasAny(intents.tokens, COLLECTION_SUBJECT));
}

/** Everyday words of a collection question that name no waste stream ("quand passe le camion demain"). */
const COLLECTION_FILLER = words(
  'bac poubelle poubelles camion eboueur eboueurs ramassage collecte collectes passage rue maison habite chez moi nous ' +
    'semaine prochaine prochain demain aujourd hui soir matin quel quelle jour jours date heure passe passent passera ' +
    'sortir rentrer ramasse ramasser ramassent collecter est ce c quand dechet dechets mon ma mes notre nos les des la le du de et a au aux svp merci bonjour ' +
    'benne eboueur camion vient viennent venir prevu prevue lundi mardi mercredi jeudi vendredi samedi dimanche ' +
    'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre er noel ferie an ' +
    'encore toujours aussi alors donc bien ok oui non',
);

/** A filler word, allowing one typo in words of four letters or more ("pase", "camoin"). */
const isFiller = (t: string) => COLLECTION_FILLER.includes(t) || (t.length >= 4 && COLLECTION_FILLER.some((w) => w.length >= 4 && editDistance(t, w, 1) <= 1));

/** Words of a collection question that are neither filler nor a place: the stream the citizen named, unknown to the data. */
export function unknownWords(intents: Intents, knowledge: CityKnowledge): string[] {
  const placeWords = new Set(
    knowledge.city.wasteCollectionPlaces.flatMap((p) => [p.name, ...p.attachedLocations.map((l) => l.name)]).flatMap((n) => tokenize(n)),
  );
  return intents.tokens.filter((t) => t.length > 2 && !STOPWORDS.has(t) && !isFiller(t) && !placeWords.has(t) && !/^\d+$/.test(t));
}
