import type { FastifyRequest } from 'fastify';
// Declares request.parts() and the types of its parts.
import type {} from '@fastify/multipart';
import { errors } from '../kernel/errors.ts';
import { multipartFault } from '../http/multipart-faults.ts';
import { SNIFF_BYTES, sniffMediaType } from '../kernel/media-types.ts';

/**
 * A resident's photo (docs/api.md, resident requests): read from the multipart part `file` into memory (10 MiB at
 * most), accepted when its bytes are a JPEG, PNG or WebP of at most 40 megapixels, and re-encoded as a JPEG of at
 * most 2048 pixels a side with every metadata left out (EXIF position, camera, dates; the orientation applied to the
 * pixels first). Nothing is stored until the whole file has arrived and been re-encoded: an upload cut off mid-way
 * leaves nothing behind.
 */

export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_MAX_MEGAPIXELS = 40;
/** Longest side kept: enough to see a broken lid or a pile of rubbish, small enough to keep thousands. */
const STORED_MAX_SIDE = 2048;

const LIMITS = { files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 20 };

/** The file of the form's part `file`, whole. */
export async function readPhotoForm(request: FastifyRequest): Promise<Buffer> {
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { ...LIMITS, fileSize: PHOTO_MAX_BYTES } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw errors.mediaFileField(part.fieldname);
        if (file) throw errors.mediaOneFile();
        file = await part.toBuffer();
      } else if (part.fieldname === 'file') {
        throw errors.mediaFileMissing();
      }
    }
  } catch (err) {
    // What the sender still sends is read and dropped, so that the answer reaches it.
    request.raw.unpipe();
    request.raw.resume();
    throw multipartFault(err, () => errors.photoTooLarge(PHOTO_MAX_BYTES));
  }
  if (!file) throw errors.mediaFileMissing();
  if (file.length === 0) throw errors.mediaEmpty();
  return file;
}

/** The photo types taken, read from the bytes as media uploads are (src/kernel/media-types.ts). */
const PHOTO_TYPES: readonly (string | null)[] = ['image/jpeg', 'image/png', 'image/webp'];

export interface EncodedPhoto {
  bytes: Buffer;
  contentType: 'image/jpeg';
  width: number;
  height: number;
}

/** The photo as stored: checked by its bytes, re-encoded without any metadata. */
export async function encodePhoto(file: Buffer): Promise<EncodedPhoto> {
  if (!PHOTO_TYPES.includes(sniffMediaType(file.subarray(0, SNIFF_BYTES)))) throw errors.photoType();
  const { default: sharp } = await import('sharp');
  const limitInputPixels = PHOTO_MAX_MEGAPIXELS * 1_000_000;
  let meta;
  try {
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    throw errors.mediaUnreadable();
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > limitInputPixels) throw errors.photoPixels(PHOTO_MAX_MEGAPIXELS);
  try {
    // sharp keeps no metadata unless asked (withMetadata/keepExif): the output carries pixels only.
    const { data, info } = await sharp(file, { limitInputPixels, failOn: 'error' })
      .rotate()
      .resize({ width: STORED_MAX_SIDE, height: STORED_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: 'image/jpeg', width: info.width, height: info.height };
  } catch {
    throw errors.mediaUnreadable();
  }
}
