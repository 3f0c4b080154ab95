/**
 * The `Range` request header (RFC 9110 §14), for one representation of `size` bytes.
 *
 * - `ignore`: no header, a unit other than bytes, a malformed header, or several ranges: the whole body
 *   is sent with 200 (the RFC lets a server ignore Range; multipart/byteranges is not worth its weight here).
 * - `unsatisfiable`: a well-formed single range that starts past the end (416).
 * - `range`: the inclusive byte interval to send with 206.
 */
export type RangeDecision =
  | { kind: 'ignore' }
  | { kind: 'unsatisfiable' }
  | { kind: 'range'; start: number; end: number };

const IGNORE: RangeDecision = { kind: 'ignore' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };

function toInt(digits: string): number | null {
  if (!/^\d+$/.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

export function parseRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return IGNORE;
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return IGNORE;
  const specs = match[1].split(',').map((s) => s.trim());
  if (specs.length !== 1) return IGNORE;
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return IGNORE;

  if (spec[1] === '') {
    // Suffix range: the last N bytes.
    const suffix = toInt(spec[2]);
    if (suffix === null) return IGNORE;
    if (suffix === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = toInt(spec[1]);
  if (start === null) return IGNORE;
  let end = size - 1;
  if (spec[2] !== '') {
    const last = toInt(spec[2]);
    // A last position before the first makes the header invalid, which means: ignore it.
    if (last === null || last < start) return IGNORE;
    end = Math.min(last, size - 1);
  }
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'range', start, end };
}

/** `If-Range` allows the partial answer only when it names the current strong entity tag. */
export function ifRangeAllows(ifRange: string | undefined, etag: string): boolean {
  if (ifRange === undefined) return true;
  return ifRange.trim() === etag && !etag.startsWith('W/');
}
