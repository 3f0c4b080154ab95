import { DatabaseLockedError, openDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { DemoImportJob, DemoImportOutcome, DemoImportReady } from './load.ts';

/**
 * The child process of the demo load (load.ts): imports the demo bundle through a connection of its own (its own PGlite
 * on the embedded database, which it first migrates when it is new), closes it, answers what it loaded or why it
 * failed, and exits. Everything the import loaded and allocated goes with the process.
 */
async function importDemo(job: DemoImportJob): Promise<DemoImportOutcome> {
  let database: Database | undefined;
  try {
    // Its modules load while the database opens (and migrates): PGlite starts its WebAssembly meanwhile.
    const importing = import('../bundle/import.ts');
    importing.catch(() => {}); // awaited below, or the open failed first
    database = await openDatabase(job.database);
    const applied = job.migrate ? await migrateToLatest(database.db, database.schema) : [];
    const { importBundleFile } = await importing;
    const summary = await importBundleFile(database, job.bundlePath, { mediaDir: job.mediaDir, now: job.now });
    return { applied, counts: { cities: summary.counts.cities, cityGroups: summary.counts.cityGroups } };
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    return {
      error: { name: error.name, message: error.message, stack: error.stack, fields: cloneable({ ...error }), locked: err instanceof DatabaseLockedError },
    };
  } finally {
    // Closed before the answer: on the embedded database the server reopens the data directory right after.
    await database?.close();
  }
}

/** The error's own fields (a system error's `code`, a bundle's `faults`) when they cross to the server as they are. */
function cloneable(fields: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(fields);
  } catch {
    return {};
  }
}

if (!process.send) throw new Error('import-process.ts runs as a child process with an IPC channel (load.ts)');
// The server gone (its channel closed), nobody waits for the import: stop rather than hold the database.
process.once('disconnect', () => process.exit(1));
process.once('message', (job) => {
  void importDemo(job as DemoImportJob).then((outcome) => {
    // The database is closed: exit at once, whatever handle (the MDX compiler's threads) would keep the process up.
    process.send!(outcome, () => process.exit(0));
  });
});
// A message that came while the modules were loading would have found no listener: the job is asked for now.
process.send({ ready: true } satisfies DemoImportReady);
