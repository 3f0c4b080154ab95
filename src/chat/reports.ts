import { normalizeText } from './text-match.ts';

/**
 * What a resident reports to the assistant rather than asks (« mon bac n'a pas été vidé ce matin »), read as the
 * request type whose form files it (docs/api.md, resident requests). The assistant does not file it: it says where.
 * Read from the message's words folded (case, accents), narrowly: a question about a bin's day is no report.
 */

export type ReportedType = 'collecte-non-effectuee' | 'bac-endommage' | 'bac-vole' | 'demande-bac' | 'point-apport-plein' | 'depot-sauvage';

const BIN = String.raw`(?:bac|bacs|poubelle|poubelles|conteneur|container|couvercle|roue|roues)`;
const POINT = String.raw`(?:borne|bornes|colonne|colonnes|conteneur|conteneurs|container|point d apport|point de collecte|point de tri|point recyclage)`;

const REPORTS: readonly [ReportedType, RegExp][] = [
  ['depot-sauvage', /\b(?:depots? sauvages?|decharges? sauvages?|dechets? abandonnes?|gravats abandonnes|dechets dans la (?:rue|nature|foret))\b/],
  [
    'collecte-non-effectuee',
    new RegExp(
      String.raw`\b(?:(?:pas|jamais|toujours pas) (?:ete |encore ete )?(?:vide|videe|vides|videes|ramasse|ramassee|ramasses|ramassees|collecte|collectee|collectes|releve|relevee|passe|passes|venu|venus)\b` +
        String.raw`|(?:camion|eboueurs?|benne|collecte|ramassage) (?:a |ont |m a |nous a )?(?:oublie|saute|zappe)` +
        String.raw`|(?:oublie|oublies|oubliee) (?:mon|ma|notre|nos|le|la|les|ma rue|mon bac|la rue)` +
        String.raw`|collecte (?:non effectuee|manquee|ratee))`,
    ),
  ],
  ['point-apport-plein', new RegExp(String.raw`\b${POINT}\b.*\b(?:pleine?s?|deborde|debordent|debordante|saturee?s?)\b|\b(?:pleine?s?|deborde|debordent)\b.*\b${POINT}\b`)],
  ['bac-vole', new RegExp(String.raw`\b${BIN}\b.*\b(?:vole|volee|voles|volees|disparu|disparue|disparus|introuvable)\b|\bon (?:m a|nous a) vole\b.*\b${BIN}\b`)],
  ['bac-endommage', new RegExp(String.raw`\b${BIN}\b.*\b(?:casse|cassee|casses|cassees|abime|abimee|abimes|endommage|endommagee|fendu|fendue|fissure|fissuree|brule|brulee|troue|trouee)\b|\b(?:casse|cassee|abime|abimee|endommage|endommagee)\b.*\b${BIN}\b`)],
  [
    'demande-bac',
    new RegExp(String.raw`\b(?:commander|demander|obtenir|recevoir|avoir|besoin d|veux|voudrais) (?:un |une |d un |d une )?(?:nouveau |nouvelle |autre |deuxieme |second |plus grand |plus petit |grand |petit )?(?:bac|poubelle)\b|\bnouveau bac\b|\bbac (?:plus grand|plus petit|supplementaire)\b`),
  ],
];

/** The type of report a message makes, or null when it makes none. */
export function reportedType(text: string): ReportedType | null {
  const folded = normalizeText(text);
  for (const [type, pattern] of REPORTS) if (pattern.test(folded)) return type;
  return null;
}
