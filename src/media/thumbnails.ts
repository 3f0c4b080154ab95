import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Sharp } from 'sharp';

/** The folder of MEDIA_DIR where thumbnails are kept, named `<media id>-<sha256 prefix>-v<version>.<ext>`. */
export const THUMBNAILS_DIR = 'thumbs';

/** Longest side of a thumbnail, in pixels: enough for a list or a card on a phone, small enough to send at once. */
export const THUMBNAIL_MAX_SIDE = 320;

/**
 * Bumped whenever the way thumbnails are made changes, so that cached files made the old way are
 * not served any more (they carry the version in their name).
 */
const THUMBNAIL_VERSION = 1;

interface ThumbnailFormat {
  ext: string;
  contentType: string;
  encode(image: Sharp): Sharp;
}

const JPEG: ThumbnailFormat = {
  ext: 'jpg',
  contentType: 'image/jpeg',
  encode: (image) => image.jpeg({ quality: 80, mozjpeg: true }),
};
// A full-colour PNG of a logo often weighs more once downscaled than the original; a palette keeps
// thumbnails of logos and icons small, and the loss is not visible at this size.
const PNG: ThumbnailFormat = {
  ext: 'png',
  contentType: 'image/png',
  encode: (image) => image.png({ palette: true, compressionLevel: 9 }),
};
const WEBP: ThumbnailFormat = { ext: 'webp', contentType: 'image/webp', encode: (image) => image.webp({ quality: 80 }) };

/**
 * The image types sharp decodes, and what their thumbnail is made as: photos stay JPEG, images that may
 * carry transparency become PNG or WebP. Any other type (PDF, video…) has no thumbnail.
 */
const FORMATS: Record<string, ThumbnailFormat> = {
  'image/jpeg': JPEG,
  'image/png': PNG,
  'image/webp': WEBP,
  'image/avif': WEBP,
  'image/gif': PNG,
  'image/tiff': JPEG,
  'image/svg+xml': PNG,
};

export function canThumbnail(mimeType: string): boolean {
  return Object.hasOwn(FORMATS, mimeType.toLowerCase());
}

export interface Thumbnail {
  bytes: Buffer;
  contentType: string;
}

export interface ThumbnailSource {
  id: string;
  mimeType: string;
  sha256: string;
}

/** Thumbnails being made right now, by cache file: concurrent first requests share one sharp run. */
const inFlight = new Map<string, Promise<Buffer>>();

/**
 * The thumbnail of a media file, made once and then read from `mediaDir/thumbs`. The cache file's name
 * carries the source's sha256, so a re-imported file with new bytes gets a new thumbnail.
 * Returns null when the type has none. Rejects with ENOENT when the source file is missing.
 */
export async function loadThumbnail(mediaDir: string, media: ThumbnailSource): Promise<Thumbnail | null> {
  const format = FORMATS[media.mimeType.toLowerCase()];
  if (!format) return null;
  const cacheFile = path.join(
    mediaDir,
    THUMBNAILS_DIR,
    `${media.id}-${media.sha256.slice(0, 16)}-v${THUMBNAIL_VERSION}.${format.ext}`,
  );
  try {
    return { bytes: await fs.readFile(cacheFile), contentType: format.contentType };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let making = inFlight.get(cacheFile);
  if (!making) {
    making = makeThumbnail(path.join(mediaDir, media.id), cacheFile, format).finally(() => inFlight.delete(cacheFile));
    inFlight.set(cacheFile, making);
  }
  return { bytes: await making, contentType: format.contentType };
}

async function makeThumbnail(sourceFile: string, cacheFile: string, format: ThumbnailFormat): Promise<Buffer> {
  // Read first, so that a missing source is a plain ENOENT, not a decoder error; and given to sharp as bytes, not as
  // a path: an SVG decoded from a path may pull in files beside it (`<image href="other-media-id">`, another group's
  // private file), one decoded from bytes has no folder to pull from.
  const source = await fs.readFile(sourceFile);
  // sharp (a native library) is loaded on the first thumbnail, not at start-up.
  const { default: sharp } = await import('sharp');
  const resized = sharp(source)
    .rotate() // honour EXIF orientation, so that a portrait photo stays portrait
    .resize({ width: THUMBNAIL_MAX_SIDE, height: THUMBNAIL_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  const bytes = await format.encode(resized).toBuffer();
  // Write aside then rename: another process (or instance on shared storage) never reads half a file,
  // and two writers just replace one complete file with an identical one.
  await fs.mkdir(path.dirname(cacheFile), { recursive: true });
  const temp = `${cacheFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, cacheFile);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  return bytes;
}
