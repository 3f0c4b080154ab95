import { readFileSync } from 'node:fs';
import { contentTokens, wordMatches } from './text-match.ts';
import type { CityKnowledge, MaterialEntry, MaterialLookup } from './knowledge.ts';
import type { RankedMaterial } from './guide-search.ts';

/**
 * Dangerous objects: gas bottles, batteries, chemicals, medicines, extinguishers, motor oil, distress flares,
 * asbestos (lexicon/hazards.json). A question naming one is answered only from a guide entry of that same family: a
 * near match on another object (« bouteille de gaz » read as « bouteille de vin ») would send it to a household bin.
 * Without such an entry, the assistant says the object is dangerous and where it goes, never guessing.
 */

export interface HazardFamily {
  key: string;
  /** Each way to name the family, as its content words (stemmed). */
  phrases: string[][];
  /** How the answer names it: « Une bouteille ou une cartouche de gaz ». */
  label: string;
  /** Where it goes, whatever the city's guide says. */
  channel: string;
  /** The city's déchèteries are listed after the channel. */
  decheterie: boolean;
}

interface HazardLexicon {
  families: { key: string; phrases: string[]; label: string; channel: string; decheterie: boolean }[];
}

const lexicon = JSON.parse(readFileSync(new URL('./lexicon/hazards.json', import.meta.url), 'utf8')) as HazardLexicon;

export const HAZARD_FAMILIES: readonly HazardFamily[] = lexicon.families.map((f) => ({
  ...f,
  phrases: f.phrases.map((p) => contentTokens(p)).filter((p) => p.length > 0),
}));

/**
 * A typed word for a word of a family: exactly, or with the usual typos for long words only (« medicamant »); short
 * words never (« gaz » is not « gazon », « pile » not « pille »).
 */
const sameWord = (typed: string, word: string): boolean => typed === word || (word.length >= 8 && wordMatches(typed, word));

function namesFamily(tokens: readonly string[], family: HazardFamily): boolean {
  return family.phrases.some((p) => p.every((w) => tokens.some((t) => sameWord(t, w))));
}

/** The dangerous family a text names, or null. */
export function hazardNamed(text: string): HazardFamily | null {
  const tokens = contentTokens(text);
  return HAZARD_FAMILIES.find((f) => namesFamily(tokens, f)) ?? null;
}

/** Whether a guide entry is an object of the family: one of its names or synonyms names it (« Pile jetable »). */
export function entryOfFamily(entry: MaterialEntry, family: HazardFamily): boolean {
  return entry.phrases.some((p) => namesFamily(p, family));
}

/** The guide's entries of the family, at most `most`. */
export function familyEntries(entries: readonly MaterialEntry[], family: HazardFamily, most = 6): MaterialEntry[] {
  return entries.filter((e) => entryOfFamily(e, family)).slice(0, most);
}

/** The phrase match kept only where it is of the family the question names: another object is no answer. */
export function lookupOfFamily(lookup: MaterialLookup, family: HazardFamily | null): MaterialLookup {
  if (family === null) return lookup;
  switch (lookup.kind) {
    case 'found':
    case 'near':
      return entryOfFamily(lookup.entry, family) ? lookup : { kind: 'none' };
    case 'ambiguous': {
      const kept = lookup.entries.filter((e) => entryOfFamily(e, family));
      if (kept.length === 0) return { kind: 'none' };
      return new Set(kept.map((e) => e.wasteType.id)).size === 1 ? { kind: 'found', entry: kept[0], score: 1 } : { kind: 'ambiguous', entries: kept };
    }
    case 'none':
      return lookup;
  }
}

/** The ranked search's hit kept only where it is of the family the question names. */
export function rankedOfFamily(ranked: RankedMaterial | null, family: HazardFamily | null): RankedMaterial | null {
  return family === null || ranked === null || entryOfFamily(ranked.entry, family) ? ranked : null;
}

/**
 * « Une bouteille ou une cartouche de gaz est un déchet dangereux : jamais dans une poubelle… », where it goes, the
 * guide's entries of the family if it has some, the city's déchèteries when they take it, and the human contact.
 */
export function hazardAnswer(knowledge: CityKnowledge, family: HazardFamily, entries: readonly MaterialEntry[], offerAgent: string): string {
  const lines = [
    `Attention, déchet dangereux\u00a0: ${lowerFirst(family.label)}. Ne mettez jamais ce déchet dans une poubelle, ni dans un bac ou une colonne de tri.`,
    family.channel,
  ];
  const known = familyEntries(entries, family);
  if (known.length > 0) {
    lines.push(`Dans le guide de tri de ${knowledge.city.name}\u00a0:`, ...known.map((e) => `- ${e.material}\u00a0: ${e.wasteType.name}`));
  }
  if (family.decheterie) {
    const centres = new Set(knowledge.points.filter((p) => p.kind === 'CENTRE').map((p) => p.id));
    const decheteries = knowledge.city.recyclingPoints.filter((p) => centres.has(p.id));
    if (decheteries.length > 0) {
      lines.push(`Déchèteries de ${knowledge.city.name}\u00a0:`, ...decheteries.map((p) => `- ${p.name}${p.address ? ` — ${p.address}` : ''}`));
    }
  }
  lines.push(`En cas de doute, ne le jetez pas\u00a0: ${lowerFirst(offerAgent)}`);
  return lines.join('\n');
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
