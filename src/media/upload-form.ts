import type { FastifyRequest } from 'fastify';
// Declares request.parts() and the types of its parts.
import type {} from '@fastify/multipart';
import { DomainError, errors } from '../kernel/errors.ts';
import { multipartFault } from '../http/multipart-faults.ts';
import { isUuid } from '../kernel/schemas.ts';
import { nulCharacterMessage } from '../kernel/validation-messages.ts';
import type { MediaUpload } from './admin-media.ts';
import { MAX_ALT_LENGTH } from './schemas.ts';
import { stageUpload, type StagedUpload } from './service.ts';

/**
 * Reads the multipart/form-data of POST /admin/media as it streams in (docs/api.md, the admin API): one file in the part
 * `file`, written to MEDIA_DIR under a temporary name while it arrives (src/media/service.ts counts it against
 * MEDIA_MAX_BYTES there, and reads its type from its bytes), and the fields `alt`, `public` and `cityGroupId`, in any
 * order. Unknown fields are ignored. Every fault of the form answers a French 400 (413 past the size, 415 for a type
 * not accepted), and leaves no file behind.
 */

/** Fields beside the file, at most, and the bytes of one: an alt text of MAX_ALT_LENGTH characters fits in UTF-8. */
const LIMITS = { files: 1, fields: 8, parts: 10, fieldSize: 4 * MAX_ALT_LENGTH, headerPairs: 20 };

const FIELDS = ['alt', 'public', 'cityGroupId'] as const;
type FieldName = (typeof FIELDS)[number];
const isField = (name: string): name is FieldName => (FIELDS as readonly string[]).includes(name);

/** The form's fields as the service takes them; invalidField (400) naming the first one that is wrong. */
function readFields(fields: Partial<Record<FieldName, string>>): Omit<MediaUpload, 'staged'> {
  for (const [name, value] of Object.entries(fields)) {
    if (value.includes('\u0000')) throw errors.nulCharacter(nulCharacterMessage('body', name), name);
  }
  const alt = fields.alt ?? '';
  if ([...alt].length > MAX_ALT_LENGTH) throw errors.invalidField('alt', `doit contenir au plus ${MAX_ALT_LENGTH}\u00a0caractères`);
  const isPublic = fields.public?.trim().toLowerCase() ?? 'false';
  if (isPublic !== 'true' && isPublic !== 'false') throw errors.invalidField('public', 'doit valoir «\u00a0true\u00a0» ou «\u00a0false\u00a0»');
  const cityGroupId = fields.cityGroupId?.trim();
  if (cityGroupId !== undefined && !isUuid(cityGroupId)) throw errors.invalidField('cityGroupId', 'doit être un identifiant (UUID)');
  return { alt: alt.trim() === '' ? null : alt, public: isPublic === 'true', cityGroupId: cityGroupId?.toLowerCase() };
}

/** The upload of a request: its file staged under a temporary name, its fields checked. */
export async function readUploadForm(request: FastifyRequest, options: { mediaDir: string; maxBytes: number }): Promise<MediaUpload> {
  const { mediaDir, maxBytes } = options;
  let staged: StagedUpload | undefined;
  // Errors raised by the sender's bytes, as opposed to ours (a full disk is a 500, not the client's fault).
  const fromSender = new WeakSet<object>();
  const fields: Partial<Record<FieldName, string>> = {};
  try {
    // One byte past the limit is let through, so that the service sees the excess and answers 413 itself.
    const parts = request.parts({ limits: { ...LIMITS, fileSize: maxBytes + 1 } })[Symbol.asyncIterator]();
    for (;;) {
      let next;
      try {
        next = await parts.next();
      } catch (err) {
        throw multipartFault(err, () => errors.mediaTooLarge(maxBytes));
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw errors.mediaFileField(part.fieldname);
        if (staged) throw errors.mediaOneFile();
        part.file.on('error', (err) => fromSender.add(err));
        staged = await stageUpload(mediaDir, part.file, { filename: part.filename, maxBytes });
      } else if (part.fieldname === 'file') {
        // A `file` part without a file name is a plain text field to the parser: no file was sent.
        throw errors.mediaFileMissing();
      } else if (isField(part.fieldname)) {
        if (fields[part.fieldname] !== undefined) throw errors.invalidField(part.fieldname, 'n’est attendu qu’une fois');
        if (part.valueTruncated) throw errors.invalidField(part.fieldname, `doit contenir au plus ${MAX_ALT_LENGTH}\u00a0caractères`);
        fields[part.fieldname] = String(part.value);
      }
    }
    if (!staged) throw errors.mediaFileMissing();
    return { staged, ...readFields(fields) };
  } catch (err) {
    // What the sender still sends is read and dropped, so that the answer reaches it (a 413 also closes the connection).
    request.raw.unpipe();
    request.raw.resume();
    await staged?.discard();
    if (err instanceof DomainError) throw err;
    if (err !== null && typeof err === 'object' && fromSender.has(err)) throw multipartFault(err, () => errors.mediaTooLarge(maxBytes));
    throw err;
  }
}
