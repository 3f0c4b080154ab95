import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { runNode, type Child } from './processes.ts';
import { BENCH_ADMIN, adminToken } from './admin-writes.ts';

/**
 * Bulky-waste pickups' race (`--only bulky-pickups`, wired in bench/run.ts; PostgreSQL only, as the two-instance case
 * of test/requests/bulky-pickups.test.ts): a day of a demo city opened with CAPACITY places, ALREADY_BOOKED of them
 * taken beforehand, then RACE_BOOKINGS bookings (`POST /public/requests`, type `encombrants`, each from a device and an
 * e-mail of its own) sent at once, half to each of two instances on one database of the run's own. Exactly the last
 * LAST_PLACES bookings must get 201, every other answer be a 409, and the day be left with `remaining` 0.
 *
 * Timing: the burst's wall time against that of as many `GET /public/cities/:cityId/bulky-pickups` sent the same way
 * (never cached: each reads the day's places), one burst before and one after, in the same run; this shared machine's
 * absolute figures are not a result, the ratio is.
 */

export const RACE_BOOKINGS = 200;
export const LAST_PLACES = 10;
/** Places taken before the race (through both instances, which warms their booking path), so the race is for the last ones. */
const ALREADY_BOOKED = 20;
const CAPACITY = ALREADY_BOOKED + LAST_PLACES;
/** Every booking the race files carries a device id starting with this. */
const DEVICE_PREFIX = 'bench-bulky-';

export interface BurstFigures {
  /** Wall time from the first request sent to the last answer read. */
  ms: number;
  rps: number;
  p50: number;
  p99: number;
}

export interface BulkyRace {
  database: string;
  slotDate: string;
  capacity: number;
  alreadyBooked: number;
  /** Answers of the race by status. */
  statuses: Record<string, number>;
  created: number;
  full: number;
  other: number;
  /** The day's `remaining` on the public listing afterwards, and its bookings on the staff's. */
  remaining: number;
  booked: number;
  distinctReferences: number;
  booking: BurstFigures;
  /** The GET bursts, before and after the race; `read` is their mean. */
  reads: BurstFigures[];
  read: BurstFigures;
  /** What is not as it must be (empty when the race booked exactly the last places). */
  problems: string[];
}

interface Sent {
  port: number;
  path: string;
  init?: RequestInit;
}

interface Answer {
  status: number;
  body: string;
}

/** Sends every request at once and waits for every answer, read whole. */
async function burst(requests: Sent[]): Promise<{ figures: BurstFigures; answers: Answer[] }> {
  const latencies: number[] = [];
  const started = performance.now();
  const answers = await Promise.all(
    requests.map(async ({ port, path, init }) => {
      const sent = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
      const body = await res.text();
      latencies.push(performance.now() - sent);
      return { status: res.status, body };
    }),
  );
  const ms = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { figures: { ms, rps: requests.length / (ms / 1000), p50: at(0.5), p99: at(0.99) }, answers };
}

/** The `code` of an error answer; null for a body that is not one. */
function codeOf(body: string): string | null {
  try {
    return (JSON.parse(body) as { code?: string }).code ?? null;
  } catch {
    return null;
  }
}

const meanBurst = (xs: BurstFigures[]): BurstFigures => {
  const m = (key: keyof BurstFigures) => xs.reduce((a, x) => a + x[key], 0) / xs.length;
  return { ms: m('ms'), rps: m('rps'), p50: m('p50'), p99: m('p99') };
};

/** The k-th booking of the run: a device and an e-mail of its own. */
function booking(cityId: string, slotDate: string, k: number): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      deviceId: `${DEVICE_PREFIX}${randomUUID()}`,
      cityId,
      typeCode: 'encombrants',
      address: `${1 + (k % 90)} rue de Siam, Brest`,
      email: `resident-${k}@example.fr`,
      description: 'Un canapé et une armoire démontée.',
      attributes: { slotDate, items: 'Un canapé, une armoire' },
    }),
  };
}

/** A PostgreSQL database of the run's own on the server of `url`, dropped by `drop()`. */
async function freshDatabase(url: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `collecte_bench_bulky_${randomBytes(4).toString('hex')}`;
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onServer(`CREATE DATABASE "${name}"`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { name, url: own.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * The race on a fresh database beside `databaseUrl`'s: the demo data imported and the bench's account created with the
 * CLI, two services started by `startService` (the bench's, so they are stopped with its others), the day opened
 * through the admin API, then the bursts. The database is dropped at the end unless `keep`.
 */
export async function runBulkyRace(options: {
  databaseUrl: string;
  env: Record<string, string>;
  cityId: string;
  startService: (extraEnv: Record<string, string>) => Promise<{ port: number; child: Child }>;
  keep: boolean;
}): Promise<BulkyRace> {
  const { cityId } = options;
  const database = await freshDatabase(options.databaseUrl);
  const services: Child[] = [];
  try {
    const env = { ...options.env, DATABASE_URL: database.url };
    const imported = await runNode(['src/cli.ts', 'import', 'demo/bundle.json'], env);
    if (imported.code !== 0) throw new Error(imported.output);
    const account = await runNode(['src/cli.ts', 'user', 'create', '--email', BENCH_ADMIN.email, '--name', 'Bench', '--super-admin'], env, `${BENCH_ADMIN.password}\n`);
    if (account.code !== 0) throw new Error(account.output);

    // The per-IP creation limit out of reach (every booking comes from 127.0.0.1), as the general one is.
    const serviceEnv = { DATABASE_URL: database.url, REQUESTS_IP_MAX: '1000000' };
    const instances = [await options.startService(serviceEnv), await options.startService(serviceEnv)];
    services.push(...instances.map((s) => s.child));
    const ports = instances.map((s) => s.port);
    const portOf = (k: number) => ports[k % ports.length];

    // A week on: open whatever the hour (a day closes at noon the day before, city time).
    const slotDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const auth = { authorization: `Bearer ${await adminToken(ports[0])}` };
    const dayUrl = `/admin/cities/${cityId}/bulky-pickups/${slotDate}`;
    const opened = await fetch(`http://127.0.0.1:${ports[0]}${dayUrl}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ capacity: CAPACITY }),
    });
    if (opened.status !== 200) throw new Error(`PUT ${dayUrl}: ${opened.status} ${await opened.text()}`);

    let k = 0;
    const before = await burst(Array.from({ length: ALREADY_BOOKED }, () => ({ port: portOf(k), path: '/public/requests', init: booking(cityId, slotDate, k++) })));
    if (before.answers.some((a) => a.status !== 201)) {
      throw new Error(`the ${ALREADY_BOOKED} bookings before the race: ${before.answers.map((a) => a.status).join(', ')}\n${before.answers.find((a) => a.status !== 201)!.body}`);
    }

    const daysPath = `/public/cities/${cityId}/bulky-pickups?from=${slotDate}&to=${slotDate}`;
    const reads = () => burst(Array.from({ length: RACE_BOOKINGS }, (_, i) => ({ port: portOf(i), path: daysPath })));
    const readOk = (answers: Answer[]) => {
      if (answers.some((a) => a.status !== 200)) throw new Error(`GET ${daysPath}: ${[...new Set(answers.map((a) => a.status))].join(', ')}`);
    };
    // A first burst unmeasured: the connections opened, the read path warm.
    readOk((await reads()).answers);
    const readBefore = await reads();
    readOk(readBefore.answers);
    const bookings = Array.from({ length: RACE_BOOKINGS }, () => ({ port: portOf(k), path: '/public/requests', init: booking(cityId, slotDate, k++) }));
    const race = await burst(bookings);
    const readAfter = await reads();
    readOk(readAfter.answers);

    const statuses: Record<string, number> = {};
    for (const a of race.answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const created = race.answers.filter((a) => a.status === 201);
    // A 409 counts as « full » only with the contract's code; any other answer is a fault of the race.
    const full = race.answers.filter((a) => a.status === 409 && codeOf(a.body) === 'bulkyDayFull');
    const others = race.answers.filter((a) => !created.includes(a) && !full.includes(a));
    const distinctReferences = new Set(created.map((a) => (JSON.parse(a.body) as { reference: string }).reference)).size;

    const open = (await (await fetch(`http://127.0.0.1:${ports[1]}${daysPath}`)).json()) as { date: string; remaining: number }[];
    const remaining = open.find((d) => d.date === slotDate)?.remaining ?? NaN;
    const staff = (await (
      await fetch(`http://127.0.0.1:${ports[1]}/admin/cities/${cityId}/bulky-pickups?from=${slotDate}&to=${slotDate}`, { headers: auth })
    ).json()) as { booked: number; bookings: unknown[] }[];
    const booked = staff[0]?.booked ?? NaN;

    const problems: string[] = [];
    if (created.length !== LAST_PLACES) problems.push(`${created.length} bookings got 201, not ${LAST_PLACES}`);
    if (full.length !== RACE_BOOKINGS - LAST_PLACES) problems.push(`${full.length} got 409 bulkyDayFull, not ${RACE_BOOKINGS - LAST_PLACES}`);
    if (others.length) {
      const bodies = [...new Set(others.map((a) => `${a.status} ${a.body.slice(0, 200)}`))].slice(0, 3);
      problems.push(`${others.length} other answers: ${bodies.join(' | ')}`);
    }
    if (distinctReferences !== created.length) problems.push(`${distinctReferences} distinct references for ${created.length} bookings`);
    if (remaining !== 0) problems.push(`the day's remaining is ${remaining} afterwards, not 0`);
    if (booked !== CAPACITY || staff[0]?.bookings.length !== CAPACITY) problems.push(`the staff's listing shows ${booked} booked of ${CAPACITY}`);

    const readFigures = [readBefore.figures, readAfter.figures];
    return {
      database: database.name,
      slotDate,
      capacity: CAPACITY,
      alreadyBooked: ALREADY_BOOKED,
      statuses,
      created: created.length,
      full: full.length,
      other: others.length,
      remaining,
      booked,
      distinctReferences,
      booking: race.figures,
      reads: readFigures,
      read: meanBurst(readFigures),
      problems,
    };
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    if (options.keep) console.log(`bulky-pickup race: database kept: ${database.name}`);
    else await database.drop();
  }
}
