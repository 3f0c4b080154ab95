/**
 * The type of an uploaded file, read from its first bytes (docs/api.md, the admin API: "the type comes from the bytes, not
 * the name"). A file's name and the Content-Type its sender declared are never consulted: a PNG named `.svg` is a PNG,
 * an SVG named `.png` is an SVG. Only the types below are accepted; anything else (HTML, scripts, archives, office
 * documents) has no type here and is refused.
 */

export const ACCEPTED_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'application/pdf',
] as const;
export type AcceptedMediaType = (typeof ACCEPTED_MEDIA_TYPES)[number];

/** How many leading bytes the sniffer is given: enough for an SVG's XML declaration, comments and doctype. */
export const SNIFF_BYTES = 64 * 1024;

const startsWith = (head: Buffer, signature: string | number[], at = 0) => {
  const bytes = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
  return head.length >= at + bytes.length && head.subarray(at, at + bytes.length).equals(bytes);
};

/** An ISO-BMFF file (`ftyp` box first) whose major or compatible brands name AVIF. */
function isAvif(head: Buffer): boolean {
  if (!startsWith(head, 'ftyp', 4)) return false;
  const boxSize = head.readUInt32BE(0);
  const end = Math.min(head.length, boxSize);
  if (boxSize < 16) return false;
  // The major brand at 8, the minor version at 12, then compatible brands four bytes each.
  for (let at = 8; at + 4 <= end; at += at === 8 ? 8 : 4) {
    const brand = head.toString('latin1', at, at + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/**
 * What may come before an XML document's root element: the declaration, comments, processing instructions, a doctype
 * (its internal subset without `]` inside, which real SVG files never need) and white space. Sticky and with no two
 * ways to match the same text, so that a hostile prolog costs one pass, never a backtracking storm.
 */
const XML_PROLOG_ITEM = /\s+|<\?[^]*?\?>|<!--[^]*?-->|<!DOCTYPE[^[>]*(?:\[[^\]]*\][^[>]*)?>/iy;
const SVG_ROOT = /<svg[\s/>]/y;

/** Whether the text is an XML document whose root element is `<svg`. */
function isSvg(head: Buffer): boolean {
  // Text only: a NUL byte never appears in a UTF-8 SVG, and a binary file would decode to anything.
  if (head.includes(0)) return false;
  const text = head.toString('utf8');
  let at = text.startsWith('\ufeff') ? 1 : 0;
  for (;;) {
    XML_PROLOG_ITEM.lastIndex = at;
    if (!XML_PROLOG_ITEM.test(text)) break;
    at = XML_PROLOG_ITEM.lastIndex;
  }
  SVG_ROOT.lastIndex = at;
  return SVG_ROOT.test(text);
}

/** The accepted type of a file from its first bytes (at most SNIFF_BYTES of them), or null for any other file. */
export function sniffMediaType(head: Buffer): AcceptedMediaType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) return 'image/gif';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return 'image/webp';
  if (isAvif(head)) return 'image/avif';
  if (startsWith(head, '%PDF-')) return 'application/pdf';
  if (isSvg(head)) return 'image/svg+xml';
  return null;
}

/** The format sharp reports for each image type: an image sharp reads as another format is refused. */
export const SHARP_FORMATS: Partial<Record<AcceptedMediaType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/svg+xml': 'svg',
};

/** A usable name when the sender gave none: `fichier.png`. */
export const DEFAULT_EXTENSIONS: Record<AcceptedMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
};
