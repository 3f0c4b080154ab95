import type { FastifyReply } from 'fastify';
import { ErrorSchema } from '../kernel/schemas.ts';

/**
 * CSV for the open-data exports (CONTRACT section 14): UTF-8, comma-separated, a header row, RFC 4180 quoting,
 * CRLF between records.
 */

export type CsvValue = string | number | null;

/** One field: quoted when it holds a comma, a double quote, CR or LF (inner quotes doubled); null is empty. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = String(value);
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

/** What the route schema of a CSV download declares: its type, and its answers (the CSV, or the French 400 and 404). */
export const csvDownloadSchema = {
  produces: ['text/csv'],
  response: {
    200: { description: '`text/csv; charset=utf-8`', content: { 'text/csv': { schema: { type: 'string' } } } },
    400: ErrorSchema,
    404: ErrorSchema,
  },
};
