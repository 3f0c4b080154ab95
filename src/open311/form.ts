/**
 * GeoReport v2's request body, `application/x-www-form-urlencoded` (docs/api.md, Open311): its fields by name, the
 * type's answers gathered from `attribute[code]=value` into `attribute` (`attribute[code][]=value`, repeated, into a
 * list, for a multivaluelist). A field given twice keeps its last value. Names that would reach an object's prototype
 * are dropped; everything else unknown is left to the schema, which ignores it.
 */

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);
const ATTRIBUTE = /^attribute\[([^\]]{1,64})\](\[\])?$/;

export function parseForm(body: string): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  const attributes: Record<string, string | string[]> = {};
  let anyAttribute = false;
  for (const [name, value] of new URLSearchParams(body)) {
    const attribute = ATTRIBUTE.exec(name);
    if (attribute) {
      const [, code, list] = attribute;
      if (UNSAFE.has(code)) continue;
      anyAttribute = true;
      if (!list) attributes[code] = value;
      else {
        const held = Object.hasOwn(attributes, code) ? attributes[code] : [];
        attributes[code] = [...(Array.isArray(held) ? held : [held]), value];
      }
    } else if (!UNSAFE.has(name)) form[name] = value;
  }
  if (anyAttribute) form.attribute = attributes;
  return form;
}
