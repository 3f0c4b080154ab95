import { isUniqueViolation } from '../db/errors.ts';
import type { BundleFault } from '../bundle/faults.ts';
import { errors } from '../kernel/errors.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';

/** What the CMS admin stores share: the bundle's faults as 400s, and unique values taken by a concurrent write. */

/** The first fault, as the 400 naming its field. */
export function assertNoFault(faults: BundleFault[]): void {
  const [fault] = faults;
  if (fault) throw errors.invalidField(fault.path, fault.message);
}

/**
 * Runs a write whose `field` must be unique (checked before, with the holder named): a concurrent write that took
 * the same value meanwhile is refused by the unique index, and answered with the same 400, never a 500.
 */
export async function uniqueField<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.invalidField(field, bundleMessages.valueTaken);
    throw err;
  }
}
