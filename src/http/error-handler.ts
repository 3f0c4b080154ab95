import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, messages, statusName } from './errors.ts';
import { validationMessage } from './validation-messages.ts';

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, message, error: statusName(statusCode) };
}

/** Fastify's own error codes that are the client's fault, mapped to the contract's status and French message. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: messages.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: messages.emptyJsonBody },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: messages.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, message: messages.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'L’en-tête « Content-Length » ne correspond pas au corps envoyé.' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, message: messages.unsupportedMediaType },
  FST_ERR_BAD_URL: { status: 400, message: 'L’adresse demandée n’est pas valide.' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, message: 'La requête n’est pas valide.' },
};

/**
 * One handler writes every failure in the contract's shape. Statuses come from the error's type or code,
 * never from its message; a 5xx never shows its internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) {
      reply.headers(err.headers);
      return reply.code(err.statusCode).send(errorBody(err.statusCode, err.message));
    }
    if (err.validation) {
      const part = err.validationContext ?? 'body';
      return reply.code(400).send(errorBody(400, validationMessage(err.validation, part)));
    }
    const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
    if (known) return reply.code(known.status).send(errorBody(known.status, known.message));
    // Plugins (rate limit, etc.) may hand over a 4xx of their own; their message is ours to set.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      const status = err.statusCode;
      const message = status === 429 ? 'Trop de requêtes : réessayez dans quelques instants.' : 'La requête n’est pas valide.';
      return reply.code(status).send(errorBody(status, message));
    }
    request.log.error({ err, reqId: request.id }, 'request failed');
    return reply.code(500).send(errorBody(500, messages.internal));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, messages.routeNotFound(request.method, request.url)));
  });
}
