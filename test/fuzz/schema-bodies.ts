import fc from 'fast-check';

/**
 * Request bodies drawn from each route's own body schema, as the OpenAPI document (`app.swagger()`) describes it:
 * objects that pass validation (each type, format, enum, pattern and bound honoured; real ids in uuid fields), so
 * that requests reach the services' rules, with now and then one field replaced by a hostile value, a required field
 * left out or an unknown one added. Routes added later are covered without touching this file.
 */

/** The part of JSON Schema the API's TypeBox schemas use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  examples?: unknown[];
}

/** The JSON body schema of one operation, by its method and OpenAPI path (`/admin/places/{placeId}/exceptions`). */
export interface BodySchema {
  method: string;
  path: string;
  schema: JsonSchema;
}

type Spec = {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Every JSON request body the API document declares, its `$ref`s resolved. */
export function bodySchemas(spec: unknown): BodySchema[] {
  const { paths = {}, components = {} } = spec as Spec;
  const resolve = (schema: JsonSchema, depth = 0): JsonSchema => {
    if (depth > 8) return {};
    if (schema.$ref) {
      const name = schema.$ref.split('/').at(-1)!;
      return resolve(components.schemas?.[name] ?? {}, depth + 1);
    }
    const out: JsonSchema = { ...schema };
    if (schema.items) out.items = resolve(schema.items, depth + 1);
    if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, resolve(s, depth + 1)]));
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (schema[key]) out[key] = schema[key]!.map((s) => resolve(s, depth + 1));
    return out;
  };
  return Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).flatMap(([method, operation]) => {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      return schema ? [{ method: method.toUpperCase(), path, schema: resolve(schema) }] : [];
    }),
  );
}

/** What a schema body needs from the test: real ids for a uuid field, and the hostile values of any field. */
export interface BodyContext {
  /** Ids of records a uuid field (or an array of them) of this name may name: `wasteTypeId`, `cityGroupIds`. */
  idsFor(field: string): string[];
  /** Any id that exists. */
  anyIds: string[];
  /** A value of the kind a confused or hostile client sends in a field. */
  hostile: fc.Arbitrary<unknown>;
  /** The day the data describes, around which dates are drawn. */
  now: Date;
}

const TEXTS = [
  'Collecte décalée',
  'Grève du 12 décembre',
  'Déchets verts',
  'Le camion passe l’après-midi.',
  'Plouzané',
  'Rue de Siam',
  'Bac jaune',
  'Déchèterie de Lavallot',
  'Tri : « emballages »',
  'a',
  '# Titre\n\nUn paragraphe *en italique*.',
];

const DAY_MS = 86_400_000;

function clampedLength(schema: JsonSchema, min = 0): { minLength: number; maxLength: number } {
  const minLength = Math.max(schema.minLength ?? min, 0);
  return { minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? minLength + 40, minLength + 40)) };
}

function stringValue(schema: JsonSchema, field: string, ctx: BodyContext): fc.Arbitrary<unknown> {
  const fits = (text: string) => text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
  switch (schema.format) {
    case 'uuid': {
      const ids = ctx.idsFor(field);
      return fc.oneof(
        { weight: ids.length ? 8 : 0, arbitrary: fc.constantFrom(...(ids.length ? ids : [''])) },
        { weight: 1, arbitrary: fc.constantFrom(...ctx.anyIds) },
        { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
      );
    }
    case 'date-time':
      return fc.integer({ min: -60, max: 400 }).chain((days) =>
        fc.constantFrom(0, 9.5, 23.99).map((hours) => new Date(Math.floor(ctx.now.getTime() / DAY_MS + days) * DAY_MS + hours * 3_600_000).toISOString()),
      );
    case 'date':
      return fc.integer({ min: -60, max: 400 }).map((days) => new Date(ctx.now.getTime() + days * DAY_MS).toISOString().slice(0, 10));
    case 'time':
      return fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30, 59)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    case 'email':
      return fc.nat(999).map((n) => `agent.${n}@collecte-fuzz.fr`);
    case 'uri':
    case 'url':
      return fc.constantFrom('https://www.brest.fr/dechets', 'https://example.org/a.png');
  }
  if (schema.pattern) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      return fc.string(clampedLength(schema));
    }
    return fc.stringMatching(pattern).filter(fits);
  }
  const texts = TEXTS.filter(fits);
  return fc.oneof(
    { weight: texts.length ? 3 : 0, arbitrary: fc.constantFrom(...(texts.length ? texts : [''])) },
    { weight: 1, arbitrary: fc.string({ ...clampedLength(schema), unit: 'grapheme' }).filter(fits) },
  );
}

function numberValue(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-6) : -1000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-6) : Math.max(min, 0) + 1000);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
  return fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
}

/** A value that the schema accepts; `field` names it, for the ids of uuid fields. */
export function schemaValue(schema: JsonSchema, field: string, ctx: BodyContext, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((branch) => schemaValue(branch, field, ctx, depth + 1)));
  if (schema.allOf?.length) return schemaValue(Object.assign({}, ...schema.allOf), field, ctx, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : undefined));
  switch (type) {
    case 'string':
      return stringValue(schema, field, ctx);
    case 'integer':
    case 'number':
      return numberValue(schema, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      // `cityGroupIds` holds what `cityGroupId` would.
      const item = schemaValue(schema.items ?? {}, field.replace(/s$/, ''), ctx, depth + 1);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, minLength + 3));
      return fc.array(item, { minLength, maxLength }).map((items) => (schema.uniqueItems ? [...new Set(items)] : items));
    }
    case 'object': {
      if (depth > 6) return fc.constant({});
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, schemaValue(s, name, ctx, depth + 1)]));
      const required = (schema.required ?? []).filter((name) => Object.hasOwn(properties, name));
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * A JSON body for the schema: valid more than half of the time, else with one field replaced by a hostile value,
 * a required field left out, or an unknown field added.
 */
export function schemaBody(schema: JsonSchema, ctx: BodyContext): fc.Arbitrary<string> {
  const valid = schemaValue(schema, '', ctx);
  const fields = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const asObject = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
  const oneFieldHostile = fields.length
    ? fc.tuple(valid, fc.constantFrom(...fields), ctx.hostile).map(([value, field, bad]) => {
        const object = asObject(value);
        return object ? { ...object, [field]: bad } : bad;
      })
    : fc.constant(null);
  const requiredMissing = required.length
    ? fc.tuple(valid, fc.constantFrom(...required)).map(([value, field]) => {
        const object = asObject(value);
        if (!object) return value;
        const { [field]: _missing, ...rest } = object;
        return rest;
      })
    : valid;
  const unknownField = fc.tuple(valid, ctx.hostile).map(([value, bad]) => (asObject(value) ? { ...asObject(value), unknownField: bad } : value));
  return fc
    .oneof(
      { weight: 12, arbitrary: valid },
      { weight: fields.length ? 5 : 0, arbitrary: oneFieldHostile },
      { weight: 1, arbitrary: requiredMissing },
      { weight: 1, arbitrary: unknownField },
    )
    .map((value) => JSON.stringify(value));
}
