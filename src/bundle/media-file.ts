import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { bundleMessages } from '../kernel/validation-messages.ts';

/** What the import learns from a media file itself: the bundle's claims about it are not trusted. */
export interface MediaFileFacts {
  absolutePath: string;
  size: number;
  sha256: string;
  /** The image type sharp detected, or null for a file that is not an image. */
  detectedMimeType: string | null;
  width: number | null;
  height: number | null;
}

const MIME_BY_FORMAT: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heif: 'image/heif',
};

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads a media file named relative to the bundle's folder. The path must stay inside that folder,
 * even through symbolic links, so that a bundle cannot make the service publish /etc/passwd.
 * Answers the facts, or a French sentence saying what is wrong.
 */
export async function inspectMediaFile(baseDir: string, relativePath: string): Promise<MediaFileFacts | string> {
  if (path.isAbsolute(relativePath)) return bundleMessages.mediaPathNotRelative;
  const base = path.resolve(baseDir);
  const resolved = path.resolve(base, relativePath);
  if (!isInside(base, resolved)) return bundleMessages.mediaPathOutsideBundle;
  let real: string;
  try {
    real = await fs.realpath(resolved);
    if (!isInside(await fs.realpath(base), real)) return bundleMessages.mediaPathOutsideBundle;
  } catch (err) {
    return fileErrorMessage(err);
  }
  let bytes: Buffer;
  try {
    const stat = await fs.stat(real);
    if (!stat.isFile()) return bundleMessages.mediaPathNotAFile;
    bytes = await fs.readFile(real);
  } catch (err) {
    return fileErrorMessage(err);
  }
  let detectedMimeType: string | null = null;
  let width: number | null = null;
  let height: number | null = null;
  try {
    const meta = await sharp(bytes).metadata();
    const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
    detectedMimeType = MIME_BY_FORMAT[format] ?? null;
    if (detectedMimeType) {
      width = meta.width ?? null;
      height = meta.height ?? null;
    }
  } catch {
    // not an image sharp can read
  }
  return { absolutePath: real, size: bytes.length, sha256: sha256Hex(bytes), detectedMimeType, width, height };
}

function isInside(base: string, target: string): boolean {
  const rel = path.relative(base, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function fileErrorMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return bundleMessages.mediaFileNotFound;
  if (code === 'EACCES' || code === 'EPERM') return bundleMessages.mediaFileNotReadable;
  return bundleMessages.mediaFileUnreadable(code);
}
