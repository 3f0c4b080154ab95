import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailable } from '../db/errors.ts';
import { DomainError, errors, messages, statusName } from '../kernel/errors.ts';
import { isOpen311Url, open311ErrorPayload } from './open311-errors.ts';
import { nulCharacterMessage, validationField, validationMessage } from '../kernel/validation-messages.ts';

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  /** The catalogue's stable name of the error kind (docs/api.md lists them); clients branch on it, never on `message`. */
  code: string;
  /** The faulty field's JSON name or path, or null. */
  field: string | null;
}

export function errorBody(statusCode: number, message: string, code: string, field: string | null = null): ErrorBody {
  return { statusCode, message, error: statusName(statusCode), code, field };
}

/** Fastify's own error codes that are the client's fault, mapped to the contract's status, code and French message. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalidJson', message: messages.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'emptyBody', message: messages.emptyJsonBody },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payloadTooLarge', message: messages.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, code: 'unsupportedMediaType', message: messages.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'contentLengthMismatch', message: messages.contentLengthMismatch },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: 'unsupportedMediaType', message: messages.unsupportedMediaType },
  FST_ERR_BAD_URL: { status: 400, code: 'badUrl', message: messages.badUrl },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'urlTooLong', message: messages.urlTooLong },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'badRequest', message: messages.badRequest },
};

/** The code and sentence of a plugin's 4xx (@fastify/static answers 412 and 416 itself), by status. */
const PLUGIN_STATUS_ERRORS: Record<number, { code: string; message: string }> = {
  412: { code: 'preconditionFailed', message: messages.preconditionFailed },
  413: { code: 'payloadTooLarge', message: messages.bodyTooLarge },
  416: { code: 'rangeNotSatisfiable', message: messages.rangeNotSatisfiable },
};

/**
 * One handler writes every failure in the contract's shape. Statuses come from the error's type or code,
 * never from its message; a 5xx never shows its internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof DatabaseUnavailable) {
      // The outage itself is logged once by the data-version poll; each request only at debug level.
      request.log.debug({ err, reqId: request.id }, 'database unavailable');
      // A read the cache answered before gets that answer again (stale-if-error); anything else: 503, try again soon.
      if (app.answerStale(request, reply)) return reply;
      err = errors.unavailable() as unknown as FastifyError;
    }
    if (err instanceof DomainError) {
      reply.headers(err.headers);
      return reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.code, err.field));
    }
    if (err.validation) {
      const part = err.validationContext ?? 'body';
      return reply.code(400).send(errorBody(400, validationMessage(err.validation, part), 'validation', validationField(err.validation)));
    }
    const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
    if (known) return reply.code(known.status).send(errorBody(known.status, known.message, known.code));
    // Another 4xx of Fastify's own or a plugin's (the static files' 412 and 416…): the client's fault, in our words,
    // with the code of its status.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      const byStatus = PLUGIN_STATUS_ERRORS[err.statusCode];
      return reply.code(err.statusCode).send(errorBody(err.statusCode, byStatus?.message ?? messages.badRequest, byStatus?.code ?? 'badRequest'));
    }
    request.log.error({ err, reqId: request.id }, 'request failed');
    return reply.code(500).send(errorBody(500, messages.internal, 'internal'));
  });

  // A NUL character is valid JSON and valid percent-encoding, but PostgreSQL text cannot hold it (22021):
  // refuse it as the client's fault before any handler reaches the database. This runs after schema
  // validation (whose message comes first) and after route-level preValidation hooks (the chat limit counts it).
  // Only the fields a route declares are looked at: unknown fields are ignored, whatever they hold.
  app.addHook('preHandler', async (request) => {
    const schema = request.routeOptions.schema;
    if (!schema) return;
    const parts = [['params', request.params], ['querystring', request.query], ['body', request.body]] as const;
    for (const [part, value] of parts) {
      const declared = (schema[part] as { properties?: Record<string, unknown> } | undefined)?.properties;
      if (!declared || value === null || typeof value !== 'object') continue;
      for (const name of Object.keys(declared)) {
        const field = findNul((value as Record<string, unknown>)[name], name);
        if (field !== undefined) throw errors.nulCharacter(nulCharacterMessage(part, field), field);
      }
    }
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, messages.routeNotFound(request.method, request.url), 'routeNotFound'));
  });
}

/**
 * Fastify's `frameworkErrors`: the answers the router gives before any hook or handler runs (a URL that
 * does not decode, a path parameter past the length limit), in the contract's shape and in French.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
  const status = known?.status ?? 400;
  const url = request.raw.url ?? '';
  reply.code(status).headers(request.server.edgeHeaders.forUrl(url));
  // Open311's clients read the standard's errors, whatever failed (docs/api.md, Open311).
  if (isOpen311Url(url)) {
    const { type, body } = open311ErrorPayload(url, status, known?.message ?? messages.badRequest);
    reply.type(type).send(body);
    return;
  }
  reply.type('application/json; charset=utf-8').send(errorBody(status, known?.message ?? messages.badRequest, known?.code ?? 'badRequest'));
}

/** The JSON name (`a.b[0]`) of the first text holding a NUL character within a field's value, if any. */
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = findNul(child, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
