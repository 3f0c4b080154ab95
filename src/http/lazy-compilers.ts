import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';

/**
 * Schema compilation on first use. Fastify compiles every route's validators and response serializers while it
 * starts (Ajv and fast-json-stringify generate code for each: about half a second for this API's ~60 routes,
 * a quarter of the time to /ready); a route compiles its own on its first request instead, once.
 */
export function lazyValidator(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown, context?: unknown) => {
    compiled ??= compile();
    const valid = (compiled as (data: unknown, context?: unknown) => boolean)(data, context);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  // Fastify hands Ajv's own functions the request as parent data, so that coercion can replace a root value.
  (validate as { schemaEnv?: unknown }).schemaEnv = true;
  return validate;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serialize = (data: unknown) => string;

/**
 * The process's serializers by what they are built from (the response schema, the app's shared schemas and options,
 * as JSON): an app built again in the same process (the tests build about a thousand) reuses each one rather than
 * generating its code again, with the Ajv instance fast-json-stringify makes for each (some 10 ms a schema, its
 * meta-schema compiled each time). Route modules may build their schemas anew for each app, so the key is the text,
 * not the object. A process holds one entry per response schema it ever served.
 */
const serializers = new Map<string, Serialize>();

/** Fastify's own serializer factory (fast-json-stringify), each route's serializer built on its first answer. */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  let context: string | undefined;
  const built = (route: Parameters<ReturnType<SerializerFactory>>[0]): Serialize => {
    context ??= JSON.stringify([externalSchemas, options ?? null]);
    const key = `${context}\0${JSON.stringify(route.schema)}`;
    let serialize = serializers.get(key);
    if (serialize === undefined) {
      serialize = build(route) as Serialize;
      serializers.set(key, serialize);
    }
    return serialize;
  };
  return (route) => {
    let serialize: Serialize | undefined;
    return (data: unknown) => (serialize ??= built(route))(data);
  };
};
