import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { MAX_TOKEN_LIFETIME_DAYS, MAX_TOKEN_LIFETIME_SECONDS, signConsoleToken } from '../auth/token.ts';
import { isUuid } from '../kernel/schemas.ts';
import { MS_PER_DAY } from '../kernel/dates.ts';

/** Default lifetime of a minted token: one working day. */
const DEFAULT_TTL = '8h';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: MS_PER_DAY / 1000 };

export const TOKEN_USAGE = `Usage: npm run collecte -- console-token --sub ID --name NAME --city-group ID [--city-group ID...] [--ttl 8h]

  --sub ID          the agent's id (recorded on its replies, assignments and tickets)
  --name NAME       the agent's display name
  --city-group ID   a city group (UUID) whose conversations the agent may see; repeat for several
  --ttl DURATION    lifetime: a number followed by s, m, h or d (default ${DEFAULT_TTL}, at most ${MAX_TOKEN_LIFETIME_DAYS}d)

Prints an HS256 token signed with CONSOLE_JWT_SECRET, holding the CHAT_CONVERSATIONS permission.`;

/** "90m" -> 5400; null when the text is not a duration. */
export function parseTtl(text: string): number | null {
  const match = /^(\d{1,7})([smhd])$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2]];
}

/** `console-token`: prints a console token on stdout (and nothing else, so that it can be piped). */
export async function runConsoleTokenCommand(config: Config, args: string[], now = new Date()): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        sub: { type: 'string' },
        name: { type: 'string' },
        'city-group': { type: 'string', multiple: true },
        ttl: { type: 'string', default: DEFAULT_TTL },
      },
    }));
  } catch (err) {
    console.error(`collecte console-token: ${(err as Error).message}\n\n${TOKEN_USAGE}`);
    return 2;
  }
  const fail = (message: string) => {
    console.error(`collecte console-token: ${message}\n\n${TOKEN_USAGE}`);
    return 2;
  };
  if (!config.consoleJwtSecret) {
    console.error('collecte console-token: CONSOLE_JWT_SECRET is not set; set it to the secret the server uses (the console is off without it).');
    return 1;
  }
  const sub = values.sub?.trim();
  const name = values.name?.trim();
  const groups = values['city-group'] ?? [];
  if (!sub) return fail('--sub is required');
  if (!name) return fail('--name is required');
  if (groups.length === 0) return fail('give at least one --city-group');
  const badGroup = groups.find((id) => !isUuid(id));
  if (badGroup !== undefined) return fail(`--city-group must be a UUID, got "${badGroup}"`);
  const ttlSeconds = parseTtl(values.ttl);
  // The longest lifetime the console accepts: a longer token would be minted only to be refused.
  if (ttlSeconds === null || ttlSeconds < 1 || ttlSeconds > MAX_TOKEN_LIFETIME_SECONDS) {
    return fail(`--ttl must be a duration such as 30m, 8h or 7d, at most ${MAX_TOKEN_LIFETIME_DAYS}d; got "${values.ttl}"`);
  }
  const token = await signConsoleToken(
    config.consoleJwtSecret,
    { sub, name, cityGroupIds: groups.map((id) => id.toLowerCase()) },
    { now, ttlSeconds },
  );
  console.log(token);
  return 0;
}
