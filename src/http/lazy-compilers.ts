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

/** Fastify's own serializer factory (fast-json-stringify), each route's serializer built on its first answer. */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= build(route))(data);
  };
};
