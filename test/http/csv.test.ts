import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvDocument, csvField } from '../../src/http/csv.ts';

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

  it('reads back, through a real CSV parser, as the very fields written', () => {
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
          assert.deepEqual(records, [header, ...rows]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
