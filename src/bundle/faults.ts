import type { RecordFault } from '../domain/rules/faults.ts';

/** A bundle that cannot be imported; nothing was written. */
export class BundleValidationError extends Error {
  readonly faults: RecordFault[];
  constructor(faults: RecordFault[]) {
    super(`The bundle is invalid (${faults.length} fault${faults.length === 1 ? '' : 's'}):\n${formatFaults(faults)}`);
    this.name = 'BundleValidationError';
    this.faults = faults;
  }
}

export function formatFaults(faults: RecordFault[]): string {
  return faults.map((f) => `${f.path || '(bundle)'}: ${f.message}`).join('\n');
}
