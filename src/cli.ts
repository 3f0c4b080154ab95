// Each command loads what it needs when it runs: the server's modules (the whole app) cost about half a second of CPU
// to load, which `console-token` or `user create` have no use for.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { exitOnStartupError } from './startup-error.ts';

const USAGE = `Usage: npm run collecte -- <command> [options]

Commands:
  serve                 serve the API (no demo data is loaded)
  migrate               apply the schema migrations to the configured database
  import FILE           load an import bundle (all or nothing) into the configured database
  console-token --sub ID --name NAME --city-group ID [--city-group ID...] [--ttl 8h]
                        print a token for the agents' console (needs CONSOLE_JWT_SECRET)
  user create --email E --name N [--super-admin] [--permission P...] [--city-group ID...]
                        create an agent's account; the password is read from standard input

The database is PostgreSQL when DATABASE_URL is set, else the embedded PGlite in DATA_DIR.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const { serve } = await import('./server.ts');
      await serve(config, { demo: false });
      return -1; // keeps running until a signal
    }
    case 'migrate': {
      const [{ openDatabase }, { operatorDatabaseOptions }, { migrateToLatest }] = await Promise.all([
        import('./db/database.ts'),
        import('./db/options.ts'),
        import('./db/migrate.ts'),
      ]);
      const database = await openDatabase(operatorDatabaseOptions(config));
      try {
        const applied = await migrateToLatest(database.db, database.schema);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date');
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'import': {
      const { positionals } = parseArgs({ args: rest, allowPositionals: true });
      if (positionals.length !== 1) {
        console.error('collecte import: give exactly one bundle file');
        return 2;
      }
      const { runImportCommand } = await import('./bundle/command.ts');
      return runImportCommand(config, positionals[0]);
    }
    case 'console-token': {
      const { runConsoleTokenCommand } = await import('./console/token-command.ts');
      return runConsoleTokenCommand(config, rest);
    }
    case 'user': {
      const { runUserCommand } = await import('./auth/user-command.ts');
      return runUserCommand(config, rest);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`collecte: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
} catch (err) {
  exitOnStartupError(err);
}
