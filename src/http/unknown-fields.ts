/**
 * The contract's rule for unknown body fields: ignored (CONTRACT.md, the rules at its top). Ignored means a
 * handler never sees them: a store that merges a patch into the stored record (`{...record, ...patch}`) would
 * otherwise write whatever a client added, such as another group's id. The body's validator is compiled from a
 * copy of the route's schema in which every plain object is closed (`additionalProperties: false`), with Ajv's
 * `removeAdditional: true`, so that Ajv drops the fields the schema does not name instead of refusing them. The
 * OpenAPI document keeps the schema as written.
 *
 * Left open, as written: an object that says what its other fields are (a map, or `additionalProperties: true`
 * for free settings), and the objects under `allOf` and under an `anyOf`/`oneOf` with more than one object
 * branch, where Ajv would drop from one branch the fields another one names.
 */
export function withUnknownFieldsDropped<S>(schema: S): S {
  if (typeof schema !== 'object' || schema === null) return schema;
  // One copy per schema, so that routes sharing a body schema share Ajv's compiled function too.
  let copy = copies.get(schema);
  if (copy === undefined) copies.set(schema, (copy = close(schema, true) as object));
  return copy as S;
}

const copies = new WeakMap<object, object>();

type Node = Record<string | symbol, unknown>;

const isObjectSchema = (node: unknown): node is Node =>
  typeof node === 'object' && node !== null && !Array.isArray(node) && ((node as Node).type === 'object' || 'properties' in node);

function close(node: unknown, closable: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => close(item, closable));
  if (typeof node !== 'object' || node === null) return node;
  const source = node as Node;
  const copy: Node = { ...source };
  if (isObjectSchema(source) && closable && source.additionalProperties === undefined && source.patternProperties === undefined) {
    copy.additionalProperties = false;
  }
  if (source.properties && typeof source.properties === 'object') {
    copy.properties = Object.fromEntries(Object.entries(source.properties as Node).map(([key, value]) => [key, close(value, true)]));
  }
  if (source.items !== undefined) copy.items = close(source.items, true);
  if (isObjectSchema(source.additionalProperties)) copy.additionalProperties = close(source.additionalProperties, true);
  if (source.patternProperties && typeof source.patternProperties === 'object') {
    copy.patternProperties = Object.fromEntries(
      Object.entries(source.patternProperties as Node).map(([key, value]) => [key, close(value, true)]),
    );
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = source[key];
    if (!Array.isArray(branches)) continue;
    const single = branches.filter(isObjectSchema).length <= 1;
    copy[key] = branches.map((branch) => close(branch, single));
  }
  if (Array.isArray(source.allOf)) copy.allOf = source.allOf.map((branch) => close(branch, false));
  return copy;
}
