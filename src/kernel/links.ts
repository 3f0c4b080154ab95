/**
 * What a link written by an agent or a bundle may open: the web, an e-mail or a phone call. Anything else a browser
 * would run or render in the page's origin (`javascript:`, `data:`, `vbscript:`, `blob:`, `file:`…) is refused. One rule
 * for every stored link the clients make clickable (a menu item's today); the citizens' app applies the same list when
 * it renders MDX links (web/shared/markdown.tsx).
 */
export const LINK_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/**
 * The scheme of an absolute link as a browser reads it, lowercase with its colon (`https:`), or null when it is not an
 * absolute URL. Read by the WHATWG URL parser, as browsers do, never by a prefix test: it drops leading and trailing
 * spaces and control characters (` javascript:`, `\u0000javascript:`), removes tabs and newlines anywhere
 * (`java\tscript:`) and lowercases the scheme (`JaVaScRiPt:`), so the scheme checked is the one a click would run.
 */
export function linkProtocol(url: string): string | null {
  return URL.canParse(url) ? new URL(url).protocol : null;
}

/** Whether an absolute link opens the web, an e-mail or a phone call (LINK_PROTOCOLS). */
export function isAllowedLink(url: string): boolean {
  const protocol = linkProtocol(url);
  return protocol !== null && LINK_PROTOCOLS.has(protocol);
}
