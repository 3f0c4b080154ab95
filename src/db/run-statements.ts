import { sql, type Kysely } from 'kysely';

/**
 * Runs a script of SQL statements one by one: PGlite's query path (the extended protocol)
 * accepts a single statement per call. Statements are separated by a semicolon at the end of a line.
 */
export async function runStatements(db: Kysely<any>, script: string): Promise<void> {
  const statements = script
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}
