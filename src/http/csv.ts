import type { FastifyReply } from 'fastify';
import { ErrorSchema } from '../kernel/schemas.ts';

/**
 * CSV for the open-data exports (docs/api.md, recycling points and open data): UTF-8, comma-separated, a header row, RFC 4180 quoting,
 * CRLF between records.
 */

/**
 * A cell's value, typed by its column: a `string` is text (names, addresses, ids, dates as the schema writes them),
 * a `number` a quantity the writer itself formats (a latitude, a longitude), `null` an empty cell.
 */
export type CsvValue = string | number | null;

/**
 * What a spreadsheet reads as the start of a formula (CSV injection, OWASP): `=`, `+`, `-`, `@`, and the tab and
 * carriage return that some spreadsheets skip before reading the rest of the cell.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell as it is safe to open in a spreadsheet: one that starts a formula (`=HYPERLINK(…)` as a point's name)
 * is prefixed with `'`, which spreadsheets read as "this is text" (OWASP's rule). The decision is by the value's type,
 * never by looking for digits: text is always text, even `-2` (a name), while a number the writer formats itself
 * (`-4.48`, a longitude) is a `number` and never reaches this function, so it stays a number for every reader.
 */
export function neutralisedText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field: text neutralised, then quoted when it holds a comma, a double quote, CR or LF (inner quotes doubled); null is empty. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  // A number goes as JavaScript writes it (`-4.48`); only text can carry a formula.
  const text = typeof value === 'number' ? String(value) : neutralisedText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole document: the header row, then one record per row, each ended by CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  let out = `${header.map(csvField).join(',')}\r\n`;
  for (const row of rows) out += `${row.map(csvField).join(',')}\r\n`;
  return out;
}

/** Sends a CSV document as a download named `filename` (ASCII letters, digits, dots and hyphens only). */
export function sendCsv(reply: FastifyReply, filename: string, body: string): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(body);
}

/**
 * What every CSV download's OpenAPI description says about its cells, after its own columns (one sentence, so that
 * each route says the same).
 */
export const CSV_FORMULA_NOTE =
  'A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (what a spreadsheet would run as a ' +
  'formula) is written with a leading `\'` (OWASP\'s rule against CSV injection); the decision is by the column\'s ' +
  'type, not by the value: a numeric column is never prefixed, so a negative coordinate such as `-4.48` stays a number.';

/** What the route schema of a CSV download declares: its type, and its answers (the CSV, or the French 400 and 404). */
export const csvDownloadSchema = {
  produces: ['text/csv'],
  response: {
    200: { description: '`text/csv; charset=utf-8`', content: { 'text/csv': { schema: { type: 'string' } } } },
    400: ErrorSchema,
    404: ErrorSchema,
  },
};
