import { open311XmlBuilder, XML_DECLARATION } from '../http/open311-errors.ts';

/**
 * GeoReport v2's XML (docs/api.md, Open311), written by fast-xml-parser's builder from the same objects as the JSON
 * answers: a list becomes its root element holding one element per item (`<services><service>…`), and a nested list
 * its plural element holding singular ones (`<formats><format>…`, `<attributes><attribute>…`, `<values><value>…`).
 * A null is an empty element; text is escaped by the builder (src/http/open311-errors.ts makes it, at first use).
 */

/** The element of one item of each nested list, by the list's name. */
const ITEM_OF: Record<string, string> = { endpoints: 'endpoint', formats: 'format', attributes: 'attribute', values: 'value' };

function toElements(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(toElements);
  if (typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => {
      if (Array.isArray(item) && ITEM_OF[name]) return [name, { [ITEM_OF[name]]: item.map(toElements) }];
      return [name, toElements(item)];
    }),
  );
}

/** A document of one root element: `<discovery>…</discovery>`, `<service_definition>…</service_definition>`. */
export function xmlDocument(root: string, value: object): string {
  return open311XmlBuilder().build({ ...XML_DECLARATION, [root]: toElements(value) });
}

/** A document of a list: `<services><service>…</service>…</services>`. */
export function xmlList(root: string, item: string, items: readonly object[]): string {
  return open311XmlBuilder().build({ ...XML_DECLARATION, [root]: { [item]: items.map(toElements) } });
}

export const XML_TYPE = 'text/xml; charset=utf-8';
