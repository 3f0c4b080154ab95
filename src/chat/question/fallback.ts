import type { Question } from './model.ts';
import type { Reading, Rule } from './reading.ts';

/**
 * The last phase: a message that asks something no topic rule read. The group's pages may answer it; else the
 * data does not, and the assistant says so.
 */

/** The best passage of the group's published pages and posts, quoted as written. */
export function cityPages(r: Reading): Question | null {
  const passage = r.passage();
  return passage ? { kind: 'content', passage } : null;
}

/** Nothing in the data answers it. */
export function notInData(): Question {
  return { kind: 'notInData' };
}

export const FALLBACK_RULES: readonly Rule[] = [cityPages, notInData];
