/**
 * Failures of the database as a service (unreachable, restarting, too slow), as opposed to a statement the
 * database refused. The HTTP layer answers them 503 with Retry-After; nothing here knows about HTTP.
 */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super('the database is unavailable', { cause });
    this.name = 'DatabaseUnavailable';
  }
}

/**
 * SQLSTATEs that say the server, not the statement, is the problem: connection exceptions (class 08), the server
 * shutting down or starting (57P01–57P03), too many connections (53300), and a statement cancelled by
 * statement_timeout (57014), which under normal data only happens when the database is overloaded.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03']);

/**
 * Whether an error raised by a query means the database could not serve it. `serverError` is true when the
 * database itself answered with an error (pg's DatabaseError): those are only availability faults for the SQLSTATEs
 * above. Any other error from the client (connection terminated, read timeout, socket errors) is one.
 */
export function isUnavailability(err: unknown, serverError: boolean): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (!serverError) return true;
  return typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code));
}

/** Whether a statement was refused for breaking a unique index (SQLSTATE 23505), on PGlite and PostgreSQL alike. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '23505';
}

/** Whether a statement was refused for naming a row that does not exist (SQLSTATE 23503, a foreign key). */
export function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '23503';
}
