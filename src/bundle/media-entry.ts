import path from 'node:path';
import type { RecordFault } from '../domain/rules/faults.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { inspectMediaFile, type MediaFileFacts } from './media-file.ts';
import type { BundleMedia } from './schema.ts';

/** A media entry once its file has been read and checked. */
export interface ValidatedMedia extends MediaFileFacts {
  id: string;
  filename: string;
  mimeType: string;
}

/**
 * The rule of a media entry once its shape is right: its file is read from the bundle's folder (`baseDir`), and what
 * the entry says of it must hold. Answers the media ready to store, or the one fault that keeps it out (its path
 * relative to the entry, as in src/domain/rules/cities.ts). The bundle's own: an agent's upload is checked by the
 * media area.
 */
export async function readMedia(entry: BundleMedia, baseDir: string): Promise<{ media: ValidatedMedia } | { fault: RecordFault }> {
  const facts = await inspectMediaFile(baseDir, entry.path);
  if (typeof facts === 'string') return { fault: { path: 'path', message: facts } };
  const claimed = entry.mimeType ?? null;
  if (facts.detectedMimeType) {
    if (claimed !== null && claimed !== facts.detectedMimeType) {
      return { fault: { path: 'mimeType', message: bundleMessages.mediaTypeMismatch(facts.detectedMimeType) } };
    }
  } else if (claimed === null) {
    return { fault: { path: 'mimeType', message: bundleMessages.mediaTypeRequired } };
  } else if (claimed.startsWith('image/')) {
    return { fault: { path: 'path', message: bundleMessages.mediaNotAnImage(claimed) } };
  }
  const media = {
    ...facts,
    id: entry.id,
    filename: entry.filename ?? path.basename(entry.path),
    mimeType: facts.detectedMimeType ?? (claimed as string),
  };
  return { media };
}
