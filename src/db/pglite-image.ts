import fs from 'node:fs';

/**
 * A new embedded database starts from a data directory made once by initdb and shipped with the code
 * (`pglite-initdb.tar.gz`, remade by `npm run pglite:image`), not from initdb itself: PGlite runs initdb in a second
 * WebAssembly instance of PostgreSQL beside the first, and the process peaks above 1.2 GiB doing it, more than a
 * small city's machine has. Started from the image, the first start peaks near 320 MiB. The image holds no table of
 * ours (the migrations run at every start as usual); it only depends on PGlite's version of PostgreSQL, and one it
 * cannot start is set aside for initdb (see openPglite in database.ts).
 */
export const INITDB_IMAGE = new URL('./pglite-initdb.tar.gz', import.meta.url);

/** The shipped image, or null when it is missing (a checkout without it: initdb runs instead). */
export function readInitdbImage(): Blob | null {
  try {
    return new Blob([fs.readFileSync(INITDB_IMAGE)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * initdb's data directory, gzipped. The template databases are dropped: nothing here creates a database, and they
 * are two thirds of what a new data directory would write to disk.
 */
export async function makeInitdbImage(): Promise<Uint8Array> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create();
  try {
    for (const name of ['template0', 'template1']) {
      // Apart: DROP DATABASE refuses to run in the transaction a string of statements makes.
      await pglite.exec(`UPDATE pg_database SET datistemplate = false WHERE datname = '${name}'`);
      await pglite.exec(`DROP DATABASE ${name}`);
    }
    await pglite.exec('CHECKPOINT');
    const image = await pglite.dumpDataDir('gzip');
    return new Uint8Array(await image.arrayBuffer());
  } finally {
    await pglite.close();
  }
}
