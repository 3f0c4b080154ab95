import type { MdxNesting } from '../../kernel/bundle-messages.ts';

/**
 * How deeply MDX content nests, found by one linear pass before the compiler sees it. The compiler's time grows
 * much faster than the content where constructs nest (measured on 90 KB): 45,000 nested braces (`{{{…}}}`) take it
 * minutes, 45,000 nested list items (`* * * …`) over a minute, nested quotes (`> > > …`) tens of seconds, nested
 * brackets and JSX tags seconds and then a stack overflow. Real posts and pages nest a few levels; past
 * MAX_MDX_NESTING the content is refused without being compiled. What is slow without nesting (thousands of
 * invalid expressions, of emphasis marks in one paragraph) is stopped by the compiler's time limit (mdx.ts).
 *
 * The pass counts what is open, not what is valid: fenced code and inline code are skipped (a code sample's `<T>`
 * or `{` opens nothing), a backslash escapes the next character, and a closer never brings a depth below zero.
 */

/** Levels of one kind of nesting at most: real content nests a few; at 100 the compiler's time is back in proportion to the content. */
export const MAX_MDX_NESTING = 100;

/**
 * Where content first nests deeper than allowed (1-based, as the compiler counts), and what nests: link and image
 * brackets (`[`, counted within a paragraph, as links cannot cross one), expression braces (`{`), JSX tags (`<a>`
 * opens, `</a>` and `/>` close), or the quotes and list items that open a line (`> - 1. `).
 */
export interface MdxTooDeep {
  kind: MdxNesting;
  line: number;
  column: number;
}

const isBlank = (line: string) => /^[ \t]*$/.test(line);
const isAsciiLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));

/** A fence's opening line (after the line's containers): its character and length, or null. */
function fenceOf(text: string): { char: string; length: number } | null {
  const match = /^[ \t]*(`{3,}|~{3,})/.exec(text);
  return match ? { char: match[1][0], length: match[1].length } : null;
}

/** The end of the quote and list markers that open a line, how many there are, and where the one past `max` is. */
function containers(line: string, max: number): { count: number; end: number; pastMaxAt: number } {
  let at = 0;
  let count = 0;
  let pastMaxAt = -1;
  for (;;) {
    while (line[at] === ' ' || line[at] === '\t') at++;
    const start = at;
    if (line[at] === '>') at++;
    else if ((line[at] === '-' || line[at] === '*' || line[at] === '+') && (line[at + 1] === ' ' || line[at + 1] === '\t')) at++;
    else {
      let digits = 0;
      while (digits < 10 && line[at + digits] >= '0' && line[at + digits] <= '9') digits++;
      const mark = line[at + digits];
      if (digits === 0 || digits > 9 || (mark !== '.' && mark !== ')') || (line[at + digits + 1] !== ' ' && line[at + digits + 1] !== '\t')) break;
      at += digits + 1;
    }
    if (++count === max + 1) pastMaxAt = start;
  }
  return { count, end: at, pastMaxAt };
}

/**
 * The inline code spans of a line, as `[start, end)` pairs in order: a run of n backticks opens one, closed by the
 * next run of exactly n. Each run is looked at once (the next run of each length is known), so this stays linear.
 */
function codeSpans(line: string, from: number): Array<[number, number]> {
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = from; i < line.length; ) {
    if (line[i] === '\\') {
      i += 2;
      continue;
    }
    if (line[i] !== '`') {
      i++;
      continue;
    }
    const start = i;
    while (line[i] === '`') i++;
    runs.push({ start, length: i - start });
  }
  const nextOfLength: number[] = new Array(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    nextOfLength[r] = lastOfLength.get(runs[r].length) ?? -1;
    lastOfLength.set(runs[r].length, r);
  }
  const spans: Array<[number, number]> = [];
  for (let r = 0; r < runs.length; r++) {
    const close = nextOfLength[r];
    if (close < 0) continue;
    spans.push([runs[r].start, runs[close].start + runs[close].length]);
    r = close;
  }
  return spans;
}

/** Where the content first nests deeper than `max` levels of one kind, or null when it never does. */
export function mdxTooDeep(content: string, max = MAX_MDX_NESTING): MdxTooDeep | null {
  const lines = content.split(/\r\n|\r|\n/);
  let brackets = 0;
  let braces = 0;
  let tags = 0;
  let fence: { char: string; length: number } | null = null;
  for (const [index, line] of lines.entries()) {
    const at = (kind: MdxNesting, i: number): MdxTooDeep => ({ kind, line: index + 1, column: i + 1 });
    if (isBlank(line)) {
      brackets = 0;
      continue;
    }
    const opening = containers(line, max);
    const text = line.slice(opening.end);
    if (fence) {
      const closing = fenceOf(text);
      if (closing && closing.char === fence.char && closing.length >= fence.length && isBlank(text.replace(/^[ \t]*[`~]+/, ''))) fence = null;
      continue;
    }
    if (opening.count > max) return at('containers', opening.pastMaxAt);
    fence = fenceOf(text);
    if (fence) continue;
    const spans = codeSpans(line, opening.end);
    let span = 0;
    for (let i = opening.end; i < line.length; i++) {
      if (span < spans.length && i === spans[span][0]) {
        i = spans[span][1] - 1;
        span++;
        continue;
      }
      const c = line[i];
      if (c === '\\') i++;
      else if (c === '[') {
        if (++brackets > max) return at('brackets', i);
      } else if (c === ']') brackets = Math.max(0, brackets - 1);
      else if (c === '{') {
        if (++braces > max) return at('braces', i);
      } else if (c === '}') braces = Math.max(0, braces - 1);
      else if (c === '<' && line[i + 1] === '/') tags = Math.max(0, tags - 1);
      else if (c === '<' && (isAsciiLetter(line[i + 1]) || line[i + 1] === '>')) {
        if (++tags > max) return at('tags', i);
      } else if (c === '/' && line[i + 1] === '>') tags = Math.max(0, tags - 1);
    }
  }
  return null;
}
