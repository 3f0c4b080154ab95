import { bundleMessages } from '../../kernel/validation-messages.ts';
import type { BundleFault } from '../faults.ts';
import type { BundleMenuItem } from '../schema.ts';

/** The rules of a site's records once their shape is right (see cities.ts): a menu item's link. */

/** What a menu item may link to: the pages of its menu's site. */
export interface SitePages {
  pageIds: ReadonlySet<string>;
}

/** PAGE links to a page of the site, EXTERNAL to an absolute URL; a link type leaves the other field null. */
export function menuItemFaults(item: Pick<BundleMenuItem, 'linkType' | 'pageId' | 'externalUrl'>, site: SitePages): BundleFault[] {
  const faults: BundleFault[] = [];
  const fault = (path: 'pageId' | 'externalUrl', message: string) => faults.push({ path, message });
  if (item.linkType === 'PAGE') {
    if (item.pageId == null) fault('pageId', bundleMessages.requiredForLinkType('PAGE'));
    else if (!site.pageIds.has(item.pageId)) fault('pageId', bundleMessages.notAPageOfTheSite(item.pageId));
  } else if (item.pageId != null) {
    fault('pageId', bundleMessages.nullUnlessLinkType('PAGE'));
  }
  if (item.linkType === 'EXTERNAL') {
    if (item.externalUrl == null) fault('externalUrl', bundleMessages.requiredForLinkType('EXTERNAL'));
    else if (!URL.canParse(item.externalUrl)) fault('externalUrl', bundleMessages.notAnAbsoluteUrl);
  } else if (item.externalUrl != null) {
    fault('externalUrl', bundleMessages.nullUnlessLinkType('EXTERNAL'));
  }
  return faults;
}
