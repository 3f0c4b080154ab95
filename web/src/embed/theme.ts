// A widget's accent colour (`data-color`), kept readable: white text on it, and it as text on white, need a contrast
// of 4.5:1 (WCAG AA). A colour short of that is darkened step by step until it passes, never used as it is.

/** `#abc` or `#aabbcc` as [r, g, b] (0–255), or null. */
export function parseHex(color: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG's contrast ratio of a colour against white. */
export function contrastWithWhite([r, g, b]: [number, number, number]): number {
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (luminance + 0.05);
}

const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The accent to use for `color`: itself when it reads on white at 4.5:1, else darkened until it does; null if not a colour. */
export function readableAccent(color: string): string | null {
  let rgb = parseHex(color);
  if (!rgb) return null;
  while (contrastWithWhite(rgb) < 4.5) rgb = rgb.map((c) => c * 0.92) as [number, number, number];
  return toHex(rgb.map((c) => Math.floor(c)));
}

/** A pale tint of the accent (highlighted choices), as --accent-light is of the app's green. */
export function lightTint(accent: string): string {
  const rgb = parseHex(accent)!;
  return toHex(rgb.map((c) => 255 - (255 - c) * 0.15));
}
