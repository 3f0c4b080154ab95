import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ANALYSED_HEAD, ANALYSED_TAIL, analysedText } from '../../src/chat/assistant.ts';
import { editDistance } from '../../src/chat/text-match.ts';

/** The built-in assistant's work per message is bounded: it reads a bounded part of the text, with cheap comparisons. */

/** The optimal-string-alignment distance, by the book: the full table. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('bounded assistant work', () => {
  it('computes the edit distance exactly up to its bound, and bound + 1 beyond, empty words included', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.constantFrom(0, 1, 2, 3, Infinity), (a, b, max) => {
        const exact = referenceDistance(a, b);
        assert.equal(editDistance(a, b, max), exact > max ? max + 1 : exact, `${a} / ${b} within ${max}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the opening and the end of a long message, cut between words, and a short one whole', () => {
    const short = 'Bonjour, quand passe la poubelle jaune rue de Siam ?';
    assert.equal(analysedText(short), short);
    const long = `Bonjour, ${'bla '.repeat(600)}quand passe la poubelle jaune ?`;
    const read = analysedText(long);
    assert.ok(read.length <= ANALYSED_HEAD + ANALYSED_TAIL + 3, `${read.length} characters read`);
    assert.ok(read.startsWith('Bonjour, bla bla'));
    assert.ok(read.endsWith(' bla quand passe la poubelle jaune ?'));
    const words = new Set(['Bonjour,', 'bla', '…', 'quand', 'passe', 'la', 'poubelle', 'jaune', '?']);
    for (const w of read.split(' ')) assert.ok(words.has(w), `« ${w} » is a word cut in two`);
  });
});
