import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailable } from '../db/errors.ts';
import { DomainError, errors, messages } from '../kernel/errors.ts';
import { validationField, validationMessage } from '../kernel/validation-messages.ts';
import { open311ErrorPayload } from '../http/open311-errors.ts';

/**
 * Open311's failures (docs/api.md, Open311): always the standard's `[{code, description}]` (`<errors><error>…` in
 * XML), never the JSON error body of the rest of the API, whatever failed — a rule, the schema, the form parser, the
 * rate limit, an unknown path under /open311. `code` is the HTTP status; `description` the catalogue's French
 * sentence, naming the field by its Open311 name (`attribute[motif]`, `lat`).
 */

/** The Open311 name of a field of the requests area (`attributes.motif` → `attribute[motif]`). */
export function open311Field(field: string, context: { positionGiven: boolean }): string {
  const attribute = /^attributes?\.(.+)$/.exec(field);
  if (attribute) return `attribute[${attribute[1]}]`;
  if (/^photoIds(\[\d+\])?$/.test(field)) return 'media_url';
  const names: Record<string, string> = {
    typeCode: 'service_code',
    cityId: 'jurisdiction_id',
    placeId: context.positionGiven ? 'lat' : 'address_string',
    latitude: 'lat',
    longitude: 'long',
    address: 'address_string',
    wasteTypeId: 'attribute[waste_type]',
    date: 'attribute[date]',
    recyclingPointId: 'attribute[recycling_point]',
  };
  return names[field] ?? field;
}

/** `err` with its field under its Open311 name, in the field and in the sentence that names it. */
export function renamedField(err: DomainError, context: { positionGiven: boolean }): DomainError {
  if (err.field === null) return err;
  const name = open311Field(err.field, context);
  if (name === err.field) return err;
  const message = err.message.replaceAll(`«\u00a0${err.field}\u00a0»`, `«\u00a0${name}\u00a0»`).replaceAll(`« ${err.field} »`, `« ${name} »`);
  return new DomainError(err.code, err.statusCode, message, err.headers, name);
}

/** Fastify's own failures that are the client's, by code. */
const FASTIFY_FAILURES: Record<string, { status: number; description: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, description: messages.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 400,
    description: 'Le corps de la requête doit être envoyé en application/x-www-form-urlencoded, comme le dit GeoReport v2.',
  },
};

/** Writes one failure in the standard's shape and format. */
export function sendOpen311Error(request: FastifyRequest, reply: FastifyReply, status: number, description: string): FastifyReply {
  const { type, body } = open311ErrorPayload(request.url, status, description);
  return reply.code(status).header('cache-control', 'no-store').type(type).send(body);
}

/** The error handler of the Open311 plugin's scope (it replaces the API's for those routes only). */
export function registerOpen311Errors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof DatabaseUnavailable) {
      if (app.answerStale(request, reply)) return reply;
      err = errors.unavailable() as unknown as FastifyError;
    }
    if (err instanceof DomainError) {
      reply.headers(err.headers);
      const renamed = renamedField(err, { positionGiven: false });
      // A partner's developer reads which field failed, even where the sentence does not say it (`Type de demande introuvable`).
      const named = renamed.field === null || renamed.message.includes(renamed.field);
      return sendOpen311Error(request, reply, err.statusCode, named ? renamed.message : `${renamed.message} (champ «\u00a0${renamed.field}\u00a0»).`);
    }
    if (err.validation) {
      const field = validationField(err.validation);
      let description = validationMessage(err.validation, err.validationContext ?? 'body');
      if (field !== null) {
        const name = open311Field(field, { positionGiven: false });
        description = description.replaceAll(`« ${field} »`, `« ${name} »`);
      }
      return sendOpen311Error(request, reply, 400, description);
    }
    const known = err.code ? FASTIFY_FAILURES[err.code] : undefined;
    if (known) return sendOpen311Error(request, reply, known.status, known.description);
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendOpen311Error(request, reply, err.statusCode === 413 ? 413 : 400, err.statusCode === 413 ? messages.bodyTooLarge : messages.badRequest);
    }
    request.log.error({ err, reqId: request.id }, 'open311 request failed');
    return sendOpen311Error(request, reply, 500, messages.internal);
  });
}
