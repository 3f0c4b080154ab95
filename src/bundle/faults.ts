/** One thing wrong with a bundle: where (JSON path such as `cities[0].wasteTypes[1].color`) and what, in French. */
export interface BundleFault {
  path: string;
  message: string;
}

/** A bundle that cannot be imported; nothing was written. */
export class BundleValidationError extends Error {
  readonly faults: BundleFault[];
  constructor(faults: BundleFault[]) {
    super(`The bundle is invalid (${faults.length} fault${faults.length === 1 ? '' : 's'}):\n${formatFaults(faults)}`);
    this.name = 'BundleValidationError';
    this.faults = faults;
  }
}

export function formatFaults(faults: BundleFault[]): string {
  return faults.map((f) => `${f.path || '(bundle)'}: ${f.message}`).join('\n');
}

/** Appends a property or an index to a JSON path: `cities[0]` + `name` → `cities[0].name`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** The faults of one record, their paths relative to it (`startDate`, `materials[1]`), placed at the record's path. */
export function under(recordPath: string, faults: BundleFault[]): BundleFault[] {
  return faults.map((f) => ({ path: childPath(recordPath, f.path), message: f.message }));
}
