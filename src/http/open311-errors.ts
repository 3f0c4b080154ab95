import { createRequire } from 'node:module';
import type { XMLBuilder } from 'fast-xml-parser';

/**
 * The one writer of Open311's failures (docs/api.md, Open311): GeoReport v2's `[{code, description}]` in JSON, or
 * `<errors><error><code>…</code><description>…</description></error></errors>` for a URL ending in `.xml`. Here, at
 * the edge, so that the answers the router gives before any route runs (a URL that does not decode) are the
 * standard's under /open311 too; src/open311 writes every other failure of its routes with it.
 */

/** Whether a URL is Open311's: `/open311`, `/open311/…`. */
export const isOpen311Url = (url: string): boolean => url === '/open311' || url.startsWith('/open311/') || url.startsWith('/open311?');

/** Whether an Open311 URL asks for XML: its path ends in `.xml`. */
export const wantsXml = (url: string): boolean => url.split('?')[0].endsWith('.xml');

/**
 * GeoReport v2's XML writer, shared with src/open311/xml.ts: made at the first document written in XML (an answer or a
 * failure), as most instances never write one and the library would otherwise be loaded at start. Required (its
 * CommonJS build, the same code) rather than imported, as its callers (the error handlers among them) are synchronous.
 * A null is an empty element.
 */
let builder: XMLBuilder | undefined;
export const open311XmlBuilder = (): XMLBuilder =>
  (builder ??= new (createRequire(import.meta.url)('fast-xml-parser') as { XMLBuilder: typeof XMLBuilder }).XMLBuilder({
    ignoreAttributes: false,
    format: true,
    suppressEmptyNode: true,
    processEntities: true,
  }));

/** The XML declaration every Open311 document begins with. */
export const XML_DECLARATION = { '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' } };

/** The content type and body of an Open311 failure. */
export function open311ErrorPayload(url: string, status: number, description: string): { type: string; body: string } {
  const errors = [{ code: status, description }];
  if (!wantsXml(url)) return { type: 'application/json; charset=utf-8', body: JSON.stringify(errors) };
  const body = open311XmlBuilder().build({ ...XML_DECLARATION, errors: { error: errors } }) as string;
  return { type: 'text/xml; charset=utf-8', body };
}
