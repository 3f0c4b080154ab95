import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { operatorDatabaseOptions } from '../db/options.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { DomainError } from '../kernel/errors.ts';
import { isUuid } from '../kernel/schemas.ts';
import { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH, passwordLength } from './passwords.ts';
import { PERMISSIONS, isPermission, type Permission } from './permissions.ts';
import { readPassword } from './read-password.ts';
import { OPERATOR, createUser } from './users.ts';

export const USER_USAGE = `Usage: npm run collecte -- user create --email E --name N [--super-admin] [--permission P]... [--city-group ID]...

  --email E          the agent's e-mail, used to log in
  --name N           the agent's display name
  --super-admin      manages city groups and every group
  --permission P     one of ${PERMISSIONS.join(', ')}; repeat for several
  --city-group ID    a city group (UUID) the agent works for; repeat for several (at least one unless --super-admin)

The password is read from standard input (at least ${MIN_PASSWORD_LENGTH} characters), e.g.
  printf '%s\\n' "$PASSWORD" | npm run collecte -- user create --email ... --name ...
or typed at the prompt (not echoed). Prints the account as JSON.`;

/** A plain e-mail shape: something@domain.tld, no spaces (the API checks the full format). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `user create`: the operator's way to create accounts, the first super admin included. Exit codes: 0, 1 refused, 2 usage. */
export async function runUserCommand(config: Config, args: string[]): Promise<number> {
  const usage = (message: string) => {
    console.error(`collecte user: ${message}\n\n${USER_USAGE}`);
    return 2;
  };
  const [action, ...rest] = args;
  if (action !== 'create') return usage(action === undefined ? 'give a subcommand: create' : `unknown subcommand "${action}"`);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        'super-admin': { type: 'boolean', default: false },
        permission: { type: 'string', multiple: true, default: [] },
        'city-group': { type: 'string', multiple: true, default: [] },
      },
    }));
  } catch (err) {
    return usage((err as Error).message);
  }
  const email = values.email?.trim() ?? '';
  const name = values.name?.trim() ?? '';
  const superAdmin = values['super-admin'];
  const groups = values['city-group'];
  if (!EMAIL.test(email)) return usage(email ? `--email must be an e-mail address, got "${email}"` : '--email is required');
  if (!name) return usage('--name is required');
  const badPermission = values.permission.find((p) => !isPermission(p));
  if (badPermission !== undefined) return usage(`--permission must be one of ${PERMISSIONS.join(', ')}; got "${badPermission}"`);
  const badGroup = groups.find((id) => !isUuid(id));
  if (badGroup !== undefined) return usage(`--city-group must be a UUID, got "${badGroup}"`);
  if (!superAdmin && groups.length === 0) return usage('give at least one --city-group (or --super-admin)');

  const password = await readPassword(`Password for ${email} (at least ${MIN_PASSWORD_LENGTH} characters): `);
  if (password === null) return usage('no password on standard input');
  const length = passwordLength(password);
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    console.error(`collecte user create: the password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters, it has ${length}; nothing was created`);
    return 1;
  }

  const database = await openDatabase(operatorDatabaseOptions(config));
  try {
    await migrateToLatest(database.db, database.schema);
    const input = { email, name, password, superAdmin, permissions: values.permission as Permission[], cityGroupIds: groups };
    const { user } = await createUser(database.db, OPERATOR, input, new Date());
    console.log(JSON.stringify(user, null, 2));
    return 0;
  } catch (err) {
    // The rules' own refusals (an e-mail taken, an unknown group) are the API's French sentences.
    if (!(err instanceof DomainError)) throw err;
    console.error(`collecte user create: nothing was created: ${err.message}`);
    return 1;
  } finally {
    await database.close();
  }
}
