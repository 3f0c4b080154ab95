import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { operatorDatabaseOptions } from '../db/options.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { BundleValidationError, formatFaults } from './faults.ts';
import { importBundle, type ImportSummary } from './import.ts';

/**
 * `npm run collecte -- import FILE`: loads a bundle into the configured database, all or nothing.
 * Answers the process exit code: 0 when imported, 1 when the file or the bundle is bad.
 */
export async function runImportCommand(config: Config, file: string): Promise<number> {
  let bundle: unknown;
  try {
    bundle = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') console.error(`collecte import: no such file: ${file}`);
    else if (err instanceof SyntaxError) console.error(`collecte import: ${file} is not valid JSON (${err.message})`);
    else console.error(`collecte import: cannot read ${file} (${code ?? (err as Error).message})`);
    return 1;
  }

  const database = await openDatabase(operatorDatabaseOptions(config));
  try {
    await migrateToLatest(database.db, database.schema);
    const summary = await importBundle(database, bundle, {
      baseDir: path.dirname(path.resolve(file)),
      mediaDir: config.mediaDir,
      now: new Date(),
    });
    console.log(formatSummary(file, summary));
    return 0;
  } catch (err) {
    if (err instanceof BundleValidationError) {
      console.error(`collecte import: ${file} was not imported, nothing was written (${err.faults.length} fault(s)):`);
      console.error(formatFaults(err.faults));
      return 1;
    }
    console.error(`collecte import: ${file} was not imported, nothing was written: ${(err as Error).message}`);
    return 1;
  } finally {
    await database.close();
  }
}

function formatSummary(file: string, summary: ImportSummary): string {
  const width = Math.max(...Object.keys(summary.counts).map((k) => k.length));
  const lines = Object.entries(summary.counts).map(([kind, count]) => `  ${kind.padEnd(width)}  ${count}`);
  return [
    `imported ${file}:`,
    ...lines,
    `rows inserted or updated: ${summary.changedRows}, removed: ${summary.deletedRows}, challenges disabled: ${summary.disabledChallenges}`,
    `data version: ${summary.dataVersion}`,
  ].join('\n');
}
