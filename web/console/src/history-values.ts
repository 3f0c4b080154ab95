// How a record's history (screens/history.tsx) and its restore's conflict say a field's value: a waste type by its
// name, a day in French, a kind by its label, a zone by its shape, « vide » for nothing, rather than raw JSON.
import { EXCEPTION_KINDS, RECYCLING_POINT_KINDS, type LabelledEntity } from './field-labels.ts';
import { frenchDate, localDay } from './french.ts';

/** What the history knows besides the record: the names of its city's waste types. */
export interface HistoryContext {
  wasteTypeNames: ReadonlyMap<string, string>;
}

const DAY_FIELDS = new Set(['startDate', 'dateFrom', 'dateTo', 'movedTo']);

const areaText = (area: { type?: unknown; coordinates?: unknown }): string =>
  area.type === 'MultiPolygon' && Array.isArray(area.coordinates) ? `zone en ${area.coordinates.length}\u00a0polygones` : 'zone d’un polygone';

/** A field's value as agents read it; `entity` null: a kind the console has no labels for (said as it is stored). */
export function sayValue(entity: LabelledEntity | null, field: string, value: unknown, context: HistoryContext | null): string {
  if (value === undefined || value === null || value === '') return 'vide';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (entity !== null) {
    const typeName = (id: unknown) => (typeof id === 'string' ? (context?.wasteTypeNames.get(id) ?? 'type de déchets supprimé') : String(id));
    if (field === 'wasteTypeId') return typeName(value);
    if (field === 'materials' && Array.isArray(value)) return value.length === 0 ? 'aucun' : value.map(typeName).join(', ');
    if (field === 'kind' && entity === 'exception') return EXCEPTION_KINDS[value as keyof typeof EXCEPTION_KINDS] ?? String(value);
    if (field === 'kind' && entity === 'recyclingPoint') return RECYCLING_POINT_KINDS.find((k) => k.value === value)?.label ?? String(value);
    if (field === 'area' && typeof value === 'object') return areaText(value as object);
    if (DAY_FIELDS.has(field) && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return frenchDate(localDay(value));
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
