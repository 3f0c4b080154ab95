import * as knowledge from './knowledge.ts';
import { isSure, rankedMaterial, rankedOverride } from './guide-search.ts';
import { pointStateNow } from './opening.ts';
import { rankedPassages } from './content.ts';
import { addedNote, changesAhead, fateSentence, movedFrom, reasonOf, sortFates } from './collection-changes.ts';
import { parseCalendarDate } from '../kernel/dates.ts';
import type { CityKnowledge, GuidanceTopic, MaterialEntry, Place, WasteType } from './knowledge.ts';

/**
 * The language model's tools: JSON views of the same knowledge functions the built-in assistant uses.
 * Results carry facts only (dates already written the French way), never instructions.
 */

export interface ToolState {
  knowledge: CityKnowledge;
  /** The conversation's place. */
  place: Place | null;
  /** A place a tool call resolved from the citizen's words: it becomes the conversation's place. */
  namedPlace: Place | null;
  handoff: boolean;
  now: Date;
}

const GUIDANCE_TOPICS = ['outOfTheBins', 'presentationOfBins', 'returnOfBins', 'respectOfCalendar', 'holidays'] as const;

const fn = (name: string, description: string, properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'function' as const,
  function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
});

export const TOOL_DEFINITIONS = [
  fn(
    'next_collections',
    'Prochaines dates de collecte au lieu de collecte de la personne. Sans lieu connu et si la ville en a plusieurs, renvoie la liste des lieux à proposer.',
    {
      waste_type: { type: 'string', description: 'Type de déchet ou couleur du bac tel que dit par la personne (facultatif : tous)' },
      place: { type: 'string', description: 'Secteur ou rue donnés par la personne (facultatif)' },
    },
  ),
  fn(
    'collection_changes',
    'Ce que deviennent les collectes d’un jour au lieu de collecte de la personne : reportées ou avancées (à quel jour), annulées, maintenues, ajoutées. Sans date : les changements des deux prochains mois.',
    {
      date: { type: 'string', description: 'Le jour demandé, au format AAAA-MM-JJ (facultatif)' },
      waste_type: { type: 'string', description: 'Type de déchet ou couleur du bac tel que dit par la personne (facultatif : tous)' },
      place: { type: 'string', description: 'Secteur ou rue donnés par la personne (facultatif)' },
    },
  ),
  fn('find_material', 'Où jeter un objet ou une matière, selon le guide de tri de la ville.', {
    query: { type: 'string', description: 'L’objet, tel que dit par la personne' },
  }, ['query']),
  fn('recycling_points', 'Déchèteries et points d’apport de la ville, avec adresse, horaires, et s’ils sont ouverts en ce moment (openNow, nextChange : prochaine ouverture ou fermeture).', {
    query: { type: 'string', description: 'Filtre facultatif : « verre », « textile », « déchèterie »…' },
  }),
  fn('guidance', 'Consignes de la ville sur les bacs et le calendrier.', {
    topic: { type: 'string', enum: [...GUIDANCE_TOPICS], description: 'sortie, présentation, rentrée des bacs, calendrier, jours fériés' },
  }, ['topic']),
  fn('find_address', 'Le secteur de collecte d’une adresse de la commune (« 12 rue de Siam ») ; il devient celui de la conversation.', {
    address: { type: 'string', description: 'L’adresse telle que donnée par la personne' },
  }, ['address']),
  fn('search_city_pages', 'Passages des pages et actualités publiées par le service, pour ce que les données ne disent pas (astuces, démarches, guide à télécharger). À citer tels quels avec leur lien.', {
    query: { type: 'string', description: 'Les mots de la question' },
  }, ['query']),
  fn('service_contact', 'Téléphone, courriel, horaires et adresse du service de collecte.', {}),
  fn('handoff_to_agent', 'Transmet la conversation à un agent humain, quand la personne le demande.', {}),
];

/** Drop-off points named after a waste type (the déchèterie for « Déchèterie », glass banks for « Verre »). */
const dropOffPoints = (k: CityKnowledge, w: WasteType) =>
  knowledge.recyclingPointsOfWasteType(k, w).map((p) => ({ name: p.name, address: p.address, openingHours: p.openingHours }));

const describeEntry = (k: CityKnowledge, e: MaterialEntry) => ({
  material: e.material,
  wasteType: e.wasteType.name,
  instructions: e.instructions,
  wasteTypeInstructions: e.wasteType.instructions,
  dropOffPoints: dropOffPoints(k, e.wasteType),
});

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const value = JSON.parse(raw || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 500) : '');

type Tool = (state: ToolState, args: Record<string, unknown>) => unknown;

/** The place named, the conversation's, or the city's only one; null when the citizen must choose. */
function placeAsked(state: ToolState, args: Record<string, unknown>): Place | null {
  const k = state.knowledge;
  const asked = text(args.place);
  const match = asked ? knowledge.placeMentioned(k, asked) : null;
  if (match) state.namedPlace = match.place;
  const places = k.city.wasteCollectionPlaces;
  return match?.place ?? state.namedPlace ?? state.place ?? (places.length === 1 ? places[0] : null);
}

/** The waste types a tool's `waste_type` names (null: every one), or the error to give back when it names none. */
function typesAsked(k: CityKnowledge, args: Record<string, unknown>): { types: WasteType[] | null } | { error: string } {
  const typeText = text(args.waste_type);
  if (!typeText) return { types: null };
  const named = knowledge.wasteTypesMentioned(k, typeText);
  if (named.length > 0) return { types: named };
  const material = knowledge.findMaterial(k, typeText);
  if (material.kind === 'found') return { types: [material.entry.wasteType] };
  return { error: `Aucun type de déchet ne correspond à « ${typeText} ».` };
}

/** The collections of the place named, the conversation's, or the city's only one; else the places to choose from. */
const nextCollections: Tool = (state, args) => {
  const k = state.knowledge;
  const place = placeAsked(state, args);
  if (!place) return { needsPlace: true, places: k.city.wasteCollectionPlaces.map((p) => p.name) };
  const asked = typesAsked(k, args);
  if ('error' in asked) return { place: place.name, error: asked.error, wasteTypes: k.city.wasteTypes.map((w) => w.name) };
  return {
    place: place.name,
    collections: knowledge.nextCollectionFacts(k, place, asked.types, state.now).map((f) => ({
      wasteType: f.wasteType.name,
      // The déchèterie, the pharmacy, glass banks: no date to give, the points to go to instead.
      ...(place.collectionDays.some((d) => d.wasteTypeId === f.wasteType.id)
        ? { doorToDoor: true, dropOffPoints: [] }
        : { doorToDoor: false, dropOffPoints: dropOffPoints(k, f.wasteType) }),
      date: f.next?.date ?? null,
      dateText: f.next ? knowledge.frenchDate(f.next.date) : null,
      holiday: f.next?.holiday ?? null,
      // « reportée du vendredi 25 décembre (Noël) », « collecte supplémentaire (…) »: the next one is not the usual one.
      change: f.next?.status === 'MOVED' ? movedFrom(f.next) : f.next?.status === 'ADDED' ? addedNote(f.next) : null,
      cancelled: f.cancelled.map((c) => ({
        date: knowledge.frenchDate(c.date),
        name: c.exceptionName,
        description: c.exceptionDescription,
        reason: c.exceptionName || c.exceptionDescription ? null : (reasonOf(c)?.text ?? null),
      })),
    })),
  };
};

/** What became of a day's collections at the place (or the changes of the next two months), as sentences to give. */
const collectionChanges: Tool = (state, args) => {
  const k = state.knowledge;
  const place = placeAsked(state, args);
  if (!place) return { needsPlace: true, places: k.city.wasteCollectionPlaces.map((p) => p.name) };
  const asked = typesAsked(k, args);
  if ('error' in asked) return { place: place.name, error: asked.error, wasteTypes: k.city.wasteTypes.map((w) => w.name) };
  const wanted = (id: string) => asked.types === null || asked.types.some((w) => w.id === id);
  const dateText = text(args.date);
  if (!dateText) {
    const changes = changesAhead(k, place, asked.types, state.now);
    const note = changes.length > 0 ? null : 'Aucun changement dans les deux prochains mois : les collectes ont lieu aux jours habituels.';
    return { place: place.name, changes, note };
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dateText) || parseCalendarDate(dateText) === null) return { error: 'date doit être un jour au format AAAA-MM-JJ.' };
  const fates = sortFates(knowledge.dayFates(k, place, dateText).filter((f) => wanted(f.kind === 'notHeld' ? f.wasteTypeId : f.occurrence.wasteTypeId)));
  if (fates.length > 0) return { place: place.name, date: knowledge.frenchDate(dateText), changes: fates.map(fateSentence) };
  return {
    place: place.name,
    date: knowledge.frenchDate(dateText),
    changes: [],
    note: 'Aucune collecte n’était prévue ce jour-là.',
    nextCollections: knowledge.collectionsAfter(k, place, dateText).filter((o) => wanted(o.wasteTypeId)).map((o) => ({
      wasteType: o.wasteTypeName,
      dateText: knowledge.frenchDate(o.date),
      change: o.status === 'MOVED' ? movedFrom(o) : o.status === 'ADDED' ? addedNote(o) : null,
    })),
  };
};

/** The sorting guide's answer for an object: found, the closest (said as a guess), candidates, or nothing. */
const findMaterial: Tool = (state, args) => {
  const k = state.knowledge;
  const result = knowledge.findMaterial(k, text(args.query));
  // The sorting guide's ranked search (the public one): a sure hit is found, a typo's is only the closest.
  const ranked = rankedMaterial(k, text(args.query));
  const closest = (entry: MaterialEntry) => ({
    found: null,
    closest: describeEntry(k, entry),
    note: 'Correspondance approximative : dites à la personne que vous pensez qu’elle cherche cet objet, sans l’affirmer.',
  });
  if (result.kind === 'found') {
    const override = rankedOverride(result, ranked);
    if (override) return override.guess ? closest(override.entry) : { found: describeEntry(k, override.entry) };
    return { found: describeEntry(k, result.entry) };
  }
  if (result.kind === 'ambiguous') return { candidates: result.entries.slice(0, 8).map((e) => describeEntry(k, e)) };
  if (ranked && isSure(ranked)) return { found: describeEntry(k, ranked.entry) };
  if (ranked) return closest(ranked.entry);
  return { found: null, note: 'Cet objet ne figure pas dans le guide de tri de la ville.' };
};

/** The place of an address (the lookup of docs/api.md, from an address to a collection place): it becomes the conversation's place. */
const findAddress: Tool = (state, args) => {
  const found = knowledge.addressMentioned(state.knowledge, text(args.address), { residence: true });
  if (!found) return { found: null, note: 'Aucune rue de la commune ne correspond à cette adresse.' };
  if ('place' in found) {
    state.namedPlace = found.place;
    return { place: found.place.name };
  }
  return { place: null, sharedStreet: found.shared.map((m) => ({ numbers: m.label, place: m.place.name })), note: 'Demandez le numéro dans la rue.' };
};

const TOOLS: Record<string, Tool> = {
  next_collections: nextCollections,
  collection_changes: collectionChanges,
  find_material: findMaterial,
  find_address: findAddress,
  recycling_points: (state, args) =>
    knowledge.recyclingPointsFor(state.knowledge, text(args.query)).map((p) => {
      const opening = pointStateNow(state.knowledge, p.id, state.now);
      const takes = state.knowledge.points.find((x) => x.id === p.id)?.wasteTypeIds ?? [];
      return {
        name: p.name,
        address: p.address,
        openingHours: p.openingHours,
        openNow: opening?.openNow ?? null,
        nextChange: opening?.nextChange ?? null,
        takes: state.knowledge.city.wasteTypes.filter((w) => takes.includes(w.id)).map((w) => w.name),
      };
    }),
  guidance: (state, args) => {
    const topic = GUIDANCE_TOPICS.find((t) => t === args.topic) as GuidanceTopic | undefined;
    if (!topic) return { error: `topic doit être l’un de : ${GUIDANCE_TOPICS.join(', ')}` };
    return { topic, text: knowledge.guidanceText(state.knowledge, topic) };
  },
  search_city_pages: (state, args) => ({
    passages: rankedPassages(state.knowledge, text(args.query), 3).map((p) => ({ title: p.title, link: p.path, quote: p.text })),
    note: 'Citez le passage tel quel, avec son titre et son lien ; n’en tirez aucun autre fait.',
  }),
  service_contact: (state) => {
    const c = state.knowledge.contact;
    return { phone: c.phone, email: c.email, hours: c.hours, address: c.address, siteEmails: c.siteEmails };
  },
  handoff_to_agent: (state) => {
    state.handoff = true;
    return { ok: true, note: 'La conversation attend maintenant un agent.' };
  },
};

/** Runs one tool call; an unknown tool or bad arguments give an error object the model can read. */
export function runTool(state: ToolState, name: string, rawArgs: string): unknown {
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : null;
  return tool ? tool(state, parseArgs(rawArgs)) : { error: `outil inconnu : ${name}` };
}
