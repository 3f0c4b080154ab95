// A place's street rules (docs/api.md, from an address to a collection place): which numbers of which streets the place serves, which the address
// search of the citizens' app reads; a list drawn from its spec, part of the place screen (its chunk).
import type { ResourceSpec } from '../crud/spec.ts';
import type { Place } from '../types.ts';

type Street = Place['streets'][number];

/** `numéros impairs de 1 à 99`, `tous les numéros` … */
export function streetRange(s: Pick<Street, 'fromNumber' | 'toNumber' | 'side'>): string {
  const side = s.side === 'ODD' ? 'numéros impairs' : s.side === 'EVEN' ? 'numéros pairs' : 'numéros';
  if (s.fromNumber === null && s.toNumber === null) return s.side === 'ALL' ? 'tous les numéros' : `tous les ${side}`;
  if (s.toNumber === null) return `${side} à partir du ${s.fromNumber}`;
  if (s.fromNumber === null) return `${side} jusqu’au ${s.toNumber}`;
  return `${side} de ${s.fromNumber} à ${s.toNumber}`;
}

export const streetSpec = (placeId: string): ResourceSpec<Street> => ({
  key: `street:${placeId}`,
  noun: { label: 'Rue', the: 'la rue', feminine: true },
  caption: 'Rues desservies',
  listUrl: `/admin/places/${placeId}/streets`,
  itemUrl: (id) => `/admin/streets/${id}`,
  fields: [
    { name: 'street', label: 'Rue', required: true, maxLength: 200, help: 'Comme sur la plaque\u00a0: Rue de Siam.' },
    { name: 'fromNumber', label: 'Du numéro', kind: 'integer', short: true, help: 'Vide\u00a0: depuis le début.' },
    { name: 'toNumber', label: 'Au numéro', kind: 'integer', short: true, help: 'Vide\u00a0: jusqu’au bout.' },
    {
      name: 'side',
      label: 'Côté',
      kind: 'select',
      required: true,
      short: true,
      initial: 'ALL',
      choices: [
        { value: 'ALL', label: 'Tous les numéros' },
        { value: 'ODD', label: 'Numéros impairs' },
        { value: 'EVEN', label: 'Numéros pairs' },
      ],
    },
  ],
  columns: ['street', { label: 'Numéros', cell: streetRange }],
  nameOf: (s) => s.street,
  rowLabel: (s) => `${s.street}, ${streetRange(s)}`,
  addLabel: 'Ajouter une rue',
  empty: 'Aucune rue\u00a0: le secteur se trouve par sa zone ou ses lieux rattachés.',
});
