/**
 * What a write rule answers: one thing wrong with a record, or with a whole import bundle. The import bundle and the
 * admin API's writes run the same rules, so a record reads the same French fault whichever way it came.
 */
export interface RecordFault {
  /** Where, as a JSON path (`cities[0].wasteTypes[1].color`; relative to the record a rule checked: `startDate`). */
  path: string;
  /** What, in French. */
  message: string;
}

/** Appends a property or an index to a JSON path: `cities[0]` + `name` → `cities[0].name`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** The faults of one record, their paths relative to it (`startDate`, `materials[1]`), placed at the record's path. */
export function under(recordPath: string, faults: RecordFault[]): RecordFault[] {
  return faults.map((f) => ({ path: childPath(recordPath, f.path), message: f.message }));
}
