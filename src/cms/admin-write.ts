import { underOwner } from '../admin/store.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { errors } from '../kernel/errors.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { findMenuOwner, findSiteOwner } from './admin-repository.ts';

/**
 * What the CMS admin stores share: their parents and unique values taken by a concurrent
 * write.
 */

/** Pages and menus: found with their site's group, 404 `Site introuvable` outside it. */
export const underSite = underOwner(findSiteOwner, errors.siteNotFound, 'siteId');

/** Menu items: found with their menu's site's group, 404 `Menu introuvable` outside it. */
export const underMenu = underOwner(findMenuOwner, errors.menuNotFound, 'menuId');

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
