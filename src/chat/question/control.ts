import type { Question } from './model.ts';
import type { Reading, Rule } from './reading.ts';

/**
 * The first phase: what is settled before the question is read, whatever else the message holds. A message with
 * nothing to read, one in English, one asking for a person, and an address that needs its number (the street is
 * shared between sectors) are answered as such.
 */

/** Nothing to read: emoji, punctuation. */
export function empty(r: Reading): Question | null {
  return r.intents.empty ? { kind: 'empty' } : null;
}

/** Written in English: the assistant answers in French only. */
export function english(r: Reading): Question | null {
  return r.intents.english ? { kind: 'english' } : null;
}

/** « je veux parler à un conseiller »: the conversation goes to an agent, whatever else the message asks. */
export function handoff(r: Reading): Question | null {
  return r.intents.handoff ? { kind: 'handoff' } : null;
}

/** A street shared between sectors, without its number: which numbers go where, and the number asked. */
export function streetShared(r: Reading): Question | null {
  return !r.named && r.streetShared && r.address && 'shared' in r.address ? { kind: 'streetShared', matches: r.address.shared } : null;
}

export const CONTROL_RULES: readonly Rule[] = [empty, english, handoff, streetShared];
