/**
 * The OpenStreetMap `recycling:<material>` keys a waste type stands for, read from its French name: a city names its
 * streams freely (`Verre`, `Emballages et papiers`, `Bornes textiles`), so the name's words are matched, accents and
 * case aside. A name no word of which is known (`Ordures ménagères`, `Pharmacie`, `Déchèterie`) maps to nothing.
 */
const MATERIALS_BY_WORD: [RegExp, string[]][] = [
  [/^verres?$/, ['glass_bottles']],
  [/^emballages?$/, ['plastic_packaging', 'cans', 'beverage_cartons']],
  [/^plastiques?$/, ['plastic_packaging']],
  [/^(canettes?|conserves?|metal|metaux)$/, ['cans']],
  [/^(papiers?|journaux|magazines?)$/, ['paper']],
  [/^cartons?$/, ['cardboard']],
  [/^(textiles?|vetements?|linge)$/, ['clothes']],
  [/^chaussures?$/, ['shoes']],
  [/^(biodechets?|alimentaires?)$/, ['organic']],
  [/^(piles?|accumulateurs?)$/, ['batteries']],
  [/^(ampoules?|neons?|lampes?)$/, ['light_bulbs']],
  [/^(deee|electromenager|electroniques?|electriques?)$/, ['electrical_appliances']],
  [/^bois$/, ['wood']],
  [/^gravats?$/, ['rubble']],
];

/** `Déchets verts` and `végétaux` are green waste; `verts` alone must not read as `verre`. */
const GREEN_WASTE = /\b(dechets? verts?|vegetaux|tontes?|branchages?)\b/;

function words(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The OSM materials of a waste type, from its name, in a stable order without repeats. */
export function osmMaterialsOf(wasteTypeName: string): string[] {
  const found = new Set<string>();
  const plain = words(wasteTypeName).join(' ');
  if (GREEN_WASTE.test(plain)) found.add('green_waste');
  for (const word of words(wasteTypeName)) {
    for (const [pattern, materials] of MATERIALS_BY_WORD) {
      if (pattern.test(word)) for (const m of materials) found.add(m);
    }
  }
  return [...found];
}
