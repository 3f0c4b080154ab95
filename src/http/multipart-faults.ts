import { DomainError, errors } from '../kernel/errors.ts';

/**
 * The errors of @fastify/multipart (and of busboy under it) that say what a form did wrong, in the API's words: one
 * mapping for every upload route (the admin's media, the residents' photos). `tooLarge` is the route's own 413.
 */
export function multipartFault(err: unknown, tooLarge: () => DomainError): DomainError {
  if (err instanceof DomainError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return errors.mediaOneFile();
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return errors.multipartTooManyParts();
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return errors.notMultipart();
    default:
      // Busboy's own errors (a part cut short, a bad header) and a sender gone mid-way: the body is not a form.
      return errors.multipartMalformed();
  }
}
