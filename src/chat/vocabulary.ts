import type { WasteTypeApi } from '../domain/city-model/schemas.ts';
import { contentTokens, stem, tokenize } from './text-match.ts';
import { COLOUR_WORDS, STREAM_FAMILIES } from './lexicon.ts';

/**
 * Everyday words for the waste streams (lexicon/streams.json). A family of words attaches to a city's waste type when
 * the type's own name holds one of the family's anchors, so a city that names its streams differently simply gets
 * fewer synonyms, never wrong ones.
 */
const FAMILIES = STREAM_FAMILIES;
/** Colour words, masculine singular after normalization and stemming (so "grise" and "gris" agree). */
const COLOURS = COLOUR_WORDS;

/** The colour a word names ([] when it is not a colour). */
export function colourWordsOf(token: string): string[] {
  const colour = COLOURS[token] ?? COLOURS[stem(token)];
  return colour ? [colour] : [];
}

/** A bin's colour as the text says it: "bac jaune", "couvercle marron", "poubelle grise". */
function coloursInText(text: string | null): string[] {
  if (!text) return [];
  const words = tokenize(text);
  const containers = new Set(['bac', 'poubelle', 'couvercle', 'sac', 'conteneur', 'container', 'colonne'].map(stem));
  const found: string[] = [];
  words.forEach((w, i) => {
    if (!containers.has(w)) return;
    // "bac jaune", "bac à couvercle marron": the colour follows within two words.
    for (const next of words.slice(i + 1, i + 4)) {
      const colour = colourWordsOf(next);
      if (colour.length) {
        found.push(...colour);
        break;
      }
    }
  });
  return found;
}

/** The colour family of a hex colour, for types whose texts name no bin colour. */
export function colourOfHex(hex: string | null): string | null {
  const m = hex ? /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex) : null;
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x, 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const s = max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
  if (s < 0.15) return l < 0.15 ? 'noir' : l > 0.85 ? 'blanc' : 'gris';
  let h = 0;
  if (max === r) h = ((g - b) / (max - min)) % 6;
  else if (max === g) h = (b - r) / (max - min) + 2;
  else h = (r - g) / (max - min) + 4;
  h = (h * 60 + 360) % 360;
  if (h < 15 || h >= 330) return 'rouge';
  if (h < 40) return l < 0.4 ? 'marron' : 'orange';
  if (h < 65) return 'jaune';
  if (h < 170) return 'vert';
  if (h < 260) return 'bleu';
  return 'violet';
}

export interface WasteTypeWords {
  /** Token sequences that name the type. */
  phrases: string[][];
  /** Bin colours that stand for it. */
  colours: string[];
}

/**
 * The words for each waste type of a city. A colour named in a type's texts ("bac jaune") belongs to it; the
 * hex colour only counts when no type of the city claims that colour in words (the glass stream's green must
 * not steal "bac vert" from green waste).
 */
export function wasteTypeVocabulary(wasteTypes: WasteTypeApi[]): Map<string, WasteTypeWords> {
  const textual = new Map(wasteTypes.map((w) => [w.id, [...new Set([...coloursInText(w.description), ...coloursInText(w.instructions)])]]));
  const claimed = new Set([...textual.values()].flat());
  const result = new Map<string, WasteTypeWords>();
  for (const w of wasteTypes) {
    const nameTokens = contentTokens(w.name);
    const phrases = [nameTokens];
    for (const family of FAMILIES) {
      if (family.anchors.some((a) => nameTokens.includes(stem(a)))) {
        phrases.push(...family.phrases.map((p) => contentTokens(p)).filter((p) => p.length > 0));
      }
    }
    const colours = textual.get(w.id)!;
    const hex = colourOfHex(w.color);
    if (colours.length === 0 && hex && !claimed.has(hex)) colours.push(hex);
    result.set(w.id, { phrases, colours });
  }
  return result;
}

