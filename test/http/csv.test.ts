import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvDocument, csvField, neutralisedText } from '../../src/http/csv.ts';

describe('CSV writing (RFC 4180)', () => {
  it('quotes only the fields that need it, doubling inner quotes', () => {
    assert.equal(csvField('Déchèterie du Vern'), 'Déchèterie du Vern');
    assert.equal(csvField('Mo-Fr 09:00-12:00,14:00-18:00'), '"Mo-Fr 09:00-12:00,14:00-18:00"');
    assert.equal(csvField('Atelier "Seconde Main"'), '"Atelier ""Seconde Main"""');
    assert.equal(csvField('ligne 1\nligne 2'), '"ligne 1\nligne 2"');
    assert.equal(csvField(null), '');
    assert.equal(csvField(45.76), '45.76');
    assert.equal(csvDocument(['a', 'b'], [['1', null]]), 'a,b\r\n1,\r\n');
  });

  it('neutralises text that would start a formula (OWASP): a leading \', then the usual quoting', () => {
    assert.equal(csvField('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
    assert.equal(csvField('+1'), "'+1");
    assert.equal(csvField('-2+3'), "'-2+3");
    assert.equal(csvField('@SUM(1)'), "'@SUM(1)");
    assert.equal(csvField('\t=1+1'), "'\t=1+1");
    assert.equal(csvField('\r=1+1'), '"\'\r=1+1"');
    // Text is text, whatever it looks like: a name `-4` is neutralised; the writer's own numbers never are.
    assert.equal(csvField('-4'), "'-4");
    assert.equal(csvField(-4.48), '-4.48');
    assert.equal(csvField(-0.5), '-0.5');
    // Only the first character counts, and a cell that merely holds one of them is left alone.
    for (const text of ['Déchèterie = tri', 'a+b', 'contact@brest.fr', "'=déjà neutralisé", '', ' =1']) assert.equal(neutralisedText(text), text);
  });

  it('reads back, through a real CSV parser, as the very fields written (text that starts a formula behind a \')', () => {
    // Any text, with the characters that need quoting drawn often.
    const text = fc.string({ unit: fc.oneof(fc.constantFrom(',', '"', '\r', '\n', ' ', 'é', '«'), fc.string({ maxLength: 1, unit: 'grapheme' })) });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }).chain((columns) =>
          fc.tuple(fc.array(text, { minLength: columns, maxLength: columns }), fc.array(fc.array(text, { minLength: columns, maxLength: columns }), { maxLength: 8 })),
        ),
        ([header, rows]) => {
          const document = csvDocument(header, rows);
          const records = parse(document, { relax_column_count: false, skip_empty_lines: false, record_delimiter: '\r\n' }) as string[][];
          const asWritten = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
          assert.deepEqual(records, [header, ...rows].map((row) => row.map(asWritten)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes every number as a number a parser reads back, negative ones included', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 6 }), (numbers) => {
        const [record] = parse(csvDocument(numbers.map((_, i) => `c${i}`), [numbers]), { from_line: 2 }) as string[][];
        assert.deepEqual(record.map(Number), numbers.map((n) => (Object.is(n, -0) ? 0 : n)));
        for (const cell of record) assert.doesNotMatch(cell, /^'/);
      }),
      { numRuns: 300 },
    );
  });
});
