/**
 * npm run bench: our service against the physical limit of this machine, as ratios taken in one run.
 *
 * Reads: for each route, the service (production mode, logs at warn, rate limiter on with a limit that does not
 * trigger, demo data) and a minimal Fastify process answering the same bytes from memory are measured with
 * autocannon, alternating ours/limit/ours/limit with the same connections, pipelining and duration, after a warm-up.
 * A turn (`--turns N`, default 2) gives each side its duration in `--slices N` (default 4) alternating stretches, so
 * that a neighbour's burst on this shared machine falls on both sides; a row's ratio is its worst turn's, so that a
 * service fast one turn and slow the next does not pass on its mean. `--aa` measures a second limit process beside the
 * first in the same slices, and prints its ratios under each row: what this machine's noise alone does to a ratio. The server runs with the V8 flags of `npm start`.
 * `--pin` runs this process (the load) on the first CPU and the servers on the others.
 * Writes: POST /public/challenges/complete against the same upsert run directly through the same driver at the
 * same concurrency; admin PATCHes of a waste type and of an exception against the statements they cannot do without
 * (lock, update, audit entry, data version) sent raw, and how soon the public city shows such a change, on the
 * writing instance and (PostgreSQL) on another. Timings vary with the machine's load; the ratios are the result.
 *
 * Also measured: the time from spawning `npm start` on the existing data directory to the first 200 on /ready,
 * the service's RSS at rest and its peak while serving, and a "cold" per-city row (a distinct URL per request,
 * so each one misses the response cache and runs the city's queries).
 *
 * Lookups (bench/lookup.ts): GET /public/places/lookup by address with one typo in the street name
 * (`12 rue jean jaurs, 10042`) and by position (a point inside a place's area, no cityId), varied over the cities'
 * streets and areas; every request is a distinct URL (number, typo, ignored postcode, or point drawn anew), so each
 * misses the response cache and runs the lookup. Baselines, as for the writes, are loops (as many as connections)
 * sending the bare query through the same driver on the same database while the service is stopped: the trigram
 * query `street_key % $key` among the city's places (pg_trgm and a GIN index made for it and dropped after) and the
 * containment query on the places' area boxes (GiST index of migration 0008). Targets: ratio 0.5 and p99 < 50 ms.
 *
 * Sorting guide (bench/search.ts): GET /public/cities/:cityId/sorting-guide with one of the city's materials
 * typed with a typo, a distinct query per request, against the bare trigram query `material % $q` on
 * waste_type_detail (GIN trigram index made for it and dropped after) through the same driver. Target: ratio 0.5.
 *
 * Reminders (bench/reminders.ts): `--reminders N` (default 100,000) runs only that case: the evening's
 * reminder run for N push subscriptions against encrypting and posting as many messages from one process.
 *
 * Memory (bench/memory.ts): `--memory` runs only that case: `npm start` itself (the start script's flags as
 * operators get them) on a fresh embedded database, its second start on the same DATA_DIR, and with DATABASE_URL the
 * same two on a database of the run's own: time to /ready, RSS ten seconds after it, the peak (VmHWM) of the start and
 * during 200 reads of GET /public/cities, and what holds the memory at rest (V8 heap, external, anonymous and
 * file-backed RSS). Targets: at rest at most 150 MiB on PostgreSQL and 300 MiB embedded; peaks at most 512 MiB embedded.
 *
 * Resident requests (`--only requests`, bench/requests.ts): POST /public/requests (type `autre`, a device per request,
 * REQUESTS_IP_MAX out of reach) against the bare INSERT of the same resident_request row through the same driver at
 * the same concurrency, alternating (target 0.5); then 100,000 requests written by set-based SQL and the staff queue
 * GET /admin/requests by group (plain, `status=RECUE`, `overdue=true`, pages spread over the whole list): p99 < 50 ms.
 * On PGlite, which has no autovacuum, the queue is measured first with the statistics the demo import left, then
 * after ANALYZE; on PostgreSQL after ANALYZE (autovacuum's work).
 *
 * Calendar (`--only calendar`): a year of a place's collections, every request computed (no response cache),
 * with the groups' holiday rules and with them set to [] through the admin API, alternating; the rules may cost at most
 * 1.5 times as much (ratio 0.67). With `--scale`, on the national database, whose generated groups carry the demo's
 * rules too (bench/scale.ts).
 *
 * Bulky-waste pickups (`--only bulky-pickups`, bench/bulky-pickups.ts; PostgreSQL only, skipped without DATABASE_URL):
 * two instances on a database of the run's own, a day with its last LAST_PLACES places free, RACE_BOOKINGS bookings sent
 * at once across both: exactly LAST_PLACES 201s, the others 409, `remaining` 0 after (else the run exits non-zero,
 * --no-fail or not); the burst's time against as many GET /public/cities/:cityId/bulky-pickups sent the same way.
 *
 * `--scale N`: before the figures, N real communes (bench/scale.ts) are generated in chunks and imported one by
 * one with the CLI (import time and rate reported), and /public/cities/:id is measured on both data sets, so that
 * the run gives its own scale/demo ratio (target 0.9): on PGlite a copy of the demo database is served beside the
 * national one and the two are measured alternating; on PostgreSQL the demo figures are taken before the import. At that size GET /public/cities is streamed: it is
 * downloaded once plain and once with brotli (bytes, time, peak RSS) instead of being replayed by the limit server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { ROOT, SERVER_NODE_FLAGS, freePort, runNode, startNode, waitFor, rssMiB, type Child } from './processes.ts';
import { measureRawUpserts } from './raw-upsert.ts';
import { BENCH_ADMIN, adminToken, measureRawAdminWrites, timeToVisible, type RawAdminWrite } from './admin-writes.ts';
import { CHUNK_CITIES as CHUNK, STREET_RULES_PER_CITY, generateScaleBundles } from './scale.ts';
import {
  addProbes,
  addressPath,
  addressRequest,
  bareContainment,
  bareTrigram,
  measureBaseline,
  openBaselineDatabase,
  positionPath,
  positionRequest,
  verifyLookups,
  type LookupProbes,
} from './lookup.ts';
import { REMINDERS_TARGET, runRemindersBench } from './reminders.ts';
import { runMemoryBench } from './memory.ts';
import { SEARCH_TRIGRAM_INDEX, bareSearch, searchPath, searchProbes, searchRequest, verifySearches } from './search.ts';
import { LAST_PLACES, RACE_BOOKINGS, runBulkyRace } from './bulky-pickups.ts';
import { QUEUE_CASES, SEED_REQUESTS, creationBody, measureRawRequestInserts, queuePath, removeBenchRequests, seedRequests } from './requests.ts';
import { openDatabase } from '../src/db/database.ts';
import { sql } from 'kysely';
import { execFileSync, spawn } from 'node:child_process';
import { CITIES_STREAM_THRESHOLD } from '../src/config.ts';

// `--reminders` alone: 100,000 devices.
const argv = process.argv.slice(2);
const remindersAt = argv.indexOf('--reminders');
if (remindersAt >= 0 && !/^\d+$/.test(argv[remindersAt + 1] ?? '')) argv.splice(remindersAt + 1, 0, '100000');

const { values: opts } = parseArgs({
  args: argv,
  options: {
    reminders: { type: 'string' },
    memory: { type: 'boolean', default: false },
    duration: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    pipelining: { type: 'string', default: '1' },
    only: { type: 'string' },
    scale: { type: 'string' },
    keep: { type: 'boolean', default: false },
    turns: { type: 'string', default: '2' },
    slices: { type: 'string', default: '4' },
    aa: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
    'no-fail': { type: 'boolean', default: false },
  },
});
const DURATION = Number(opts.duration);
const WARMUP = Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
const PIPELINING = Number(opts.pipelining);
/** Cached reads: the worst turn's ratio (ours against the limit, taken one after the other) at least this. */
const READ_TARGET = 0.9;
/** A city's read one second after an admin write, against the same read before it. */
const READ_AFTER_WRITE_TARGET = 0.75;
/** Turns of ours-then-limit per cached read; each turn's ratio must meet READ_TARGET, not only their mean. */
const TURNS = Number(opts.turns);
/** Alternating stretches of ours and the limit within a turn (`--slices N`); their means make the turn's ratio. */
const SLICES = Number(opts.slices);
const WRITE_TARGET = 0.6;
/** An admin PATCH at least half the rate of its statements sent raw. */
const ADMIN_WRITE_TARGET = 0.5;
const SCALE_TARGET = 0.9;
/** Lookups by address (with a typo) and by position at least half the rate of their bare query, p99 < 50 ms. */
const LOOKUP_TARGET = 0.5;
const LOOKUP_P99_MS = 50;
/** The sorting-guide search at least half the rate of the bare trigram query on the same table. */
const SEARCH_TARGET = 0.5;
/** A resident request's creation at least half the rate of the bare insert of its row; the staff queue's p99. */
const REQUEST_CREATE_TARGET = 0.5;
const QUEUE_P99_MS = 50;
/** A place's calendar with its group's holiday rules costs at most 1.5 times as much as without. */
const CALENDAR_RULES_TARGET = 0.67;
const SCALE = opts.scale ? Number(opts.scale) : 0;

/**
 * `--pin`: this process (the load generator, autocannon runs in it) on the first CPU, every server it measures on the
 * others. Unpinned, on two cores, the scheduler moves three busy processes over two CPUs and a turn's ratio moves
 * with where it puts them, the limit's against a copy of itself included (docs/performance.md, Steady small reads).
 */
function pinLoadGenerator(): string {
  const cpus = os.availableParallelism();
  if (cpus < 2) {
    console.error('--pin needs at least two CPUs: one for the load, the others for the servers');
    process.exit(2);
  }
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  return cpus === 2 ? '1' : `1-${cpus - 1}`;
}
/** The CPUs of the measured servers with --pin; undefined: wherever the scheduler puts them. */
const SERVER_CPUS = opts.pin ? pinLoadGenerator() : undefined;
/** Above this many ACTIF cities the service streams the list (its default CITIES_STREAM_THRESHOLD). */
const STREAM_THRESHOLD = CITIES_STREAM_THRESHOLD;
const READY_TARGET_MS = 3000;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function cannon(url: string, headers: Record<string, string>, duration: number, extra: Partial<autocannon.Options> = {}): Promise<Figures> {
  const result = await autocannon({ url, headers, duration, connections: CONNECTIONS, pipelining: PIPELINING, ...extra });
  if (result.errors || result.non2xx) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const mean = (xs: Figures[]): Figures => ({
  rps: xs.reduce((a, x) => a + x.rps, 0) / xs.length,
  p50: xs.reduce((a, x) => a + x.p50, 0) / xs.length,
  p99: xs.reduce((a, x) => a + x.p99, 0) / xs.length,
});

interface Row {
  route: string;
  encoding: string;
  ours: Figures;
  limit: Figures;
  ratio: number;
  target: number;
  /** A latency target too: ours' p99 under this many ms. */
  p99Max?: number;
  /** Each turn's ratio, when the row took several (its ratio is then the worst). */
  turns?: number[];
  /** With --aa: each turn's ratio of a second limit process to the first, taken in the same slices (the noise floor). */
  noise?: number[];
}

/** Samples a process's RSS every 100 ms; `peak()` answers the largest seen since the last `reset()`. */
function rssSampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid) ?? 0);
  }, 100);
  timer.unref();
  return {
    peak: () => Math.max(peak, rssMiB(pid) ?? 0),
    reset: () => void (peak = 0),
    stop: () => clearInterval(timer),
  };
}

/**
 * Per-city reads that each miss the response cache, against a service started with RESPONSE_CACHE=false (the cache
 * is keyed on the route's declared parameters, so a distinct query string no longer defeats it).
 */
async function coldCityReads(port: number, cityIds: string[], duration: number): Promise<Figures> {
  let n = 0;
  return cannon(`http://127.0.0.1:${port}/public/cities/${cityIds[0]}`, {}, duration, {
    requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: `/public/cities/${cityIds[n++ % cityIds.length]}?cold=${n}` }) }],
  });
}

/** Downloads a (streamed) body once, counting bytes without keeping them. */
function download(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; seconds: number; encoding: string }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, bytes, seconds: (performance.now() - start) / 1000, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Time from spawning `npm start` (existing data directory) to the first 200 on /ready. */
async function measureNpmStart(env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const proc = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error('npm start exited');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/ready`)).status === 200) return Math.round(performance.now() - started);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
      if (performance.now() - started > 120_000) throw new Error('npm start: /ready never answered 200');
    }
  } finally {
    // npm execs node in place, so the signal reaches the server; wait for it to release the data directory.
    const exited = new Promise((r) => proc.once('exit', r));
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await exited;
  }
}

async function main() {
  const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'demo/bundle.json'), 'utf8'));
  const city = bundle.cities.find((c: any) => c.status === 'ACTIF');
  const site = bundle.sites.find((s: any) => s.type === 'SITE');
  const page = site.pages.find((p: any) => p.publishedAt && new Date(p.publishedAt) <= new Date());
  const media = bundle.media.find((m: any) => m.public && m.mimeType.startsWith('image/'));
  const demoCityIds: string[] = bundle.cities.filter((c: any) => c.status === 'ACTIF').map((c: any) => c.id);
  const streamed = SCALE + demoCityIds.length > STREAM_THRESHOLD;
  const routes = [
    '/public/cities',
    `/public/cities/${city.id}`,
    '/public/city-groups',
    `/public/challenges/${city.id}`,
    '/public/blog-posts',
    `/public/cms/pages/${page.id}`,
    `/public/cms/media/${media.id}/file`,
  ].filter((r) => !opts.only || r.includes(opts.only));
  // A streamed list is too large to replay from memory: it is measured as a download instead.
  const ratioRoutes = routes.filter((r) => !(streamed && r === '/public/cities'));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-bench-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The limiter stays on, with a limit no benchmark reaches.
    RATE_LIMIT_MAX: '1000000000',
    REDIS_URL: process.env.REDIS_URL ?? '',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    // Logins for the admin write path; a bench-only secret.
    CONSOLE_JWT_SECRET: randomUUID() + randomUUID(),
  };
  const children: Child[] = [];
  const cleanup = async () => {
    await Promise.all(children.map((c) => c.stop()));
    if (opts.keep) console.log(`data directory kept: ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
    if (demoDataDir) fs.rmSync(demoDataDir, { recursive: true, force: true });
  };
  // With --scale on PGlite: a copy of the demo database, served beside the national one at the end so that the
  // per-city figures of both are taken alternating in one stretch of time.
  let demoDataDir: string | null = null;
  /** A service that computes every read: the cold per-city figures. */
  const UNCACHED = { RESPONSE_CACHE: 'false' };
  const startService = async (extraEnv: Record<string, string> = {}) => {
    const port = await freePort();
    const child = startNode([...SERVER_NODE_FLAGS, 'src/cli.ts', 'serve'], { ...env, ...extraEnv, PORT: String(port) }, undefined, SERVER_CPUS);
    children.push(child);
    const readyMs = await waitFor(`http://127.0.0.1:${port}/ready`, child);
    return { port, child, readyMs };
  };
  try {
    console.log(`importing the demo data (${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})…`);
    const imported = await runNode(['src/cli.ts', 'import', 'demo/bundle.json'], env);
    if (imported.code !== 0) throw new Error(imported.output);
    const account = ['src/cli.ts', 'user', 'create', '--email', BENCH_ADMIN.email, '--name', 'Bench', '--super-admin'];
    const created = await runNode(account, env, `${BENCH_ADMIN.password}\n`);
    // On PostgreSQL the database outlives the run: the account of an earlier run is still there, with this password.
    if (created.code !== 0 && !created.output.includes('désigne déjà un compte')) throw new Error(created.output);

    // With --scale: the per-city figures with the demo data, to compare with the same figures at scale. On PGlite
    // the demo database is copied and served again at the end, alternating with the national one; on PostgreSQL
    // (one database) they are taken now, before the import.
    let demoCity: { cached: Figures; cold: Figures } | null = null;
    let scale: Record<string, unknown> | null = null;
    // The lookup cases' probes: the demo's ACTIF cities, or the generated ones with --scale (bench/lookup.ts).
    let probes: LookupProbes = { addresses: [], positions: [] };
    for (const c of bundle.cities.filter((c: any) => c.status === 'ACTIF')) addProbes(probes, c);
    if (SCALE > 0) {
      if (env.DATABASE_URL) {
        const demo = await startService();
        const demoCold = await startService(UNCACHED);
        const url = `http://127.0.0.1:${demo.port}/public/cities/${city.id}`;
        await cannon(url, {}, WARMUP);
        await coldCityReads(demoCold.port, demoCityIds, WARMUP);
        demoCity = { cached: await cannon(url, {}, DURATION), cold: await coldCityReads(demoCold.port, demoCityIds, DURATION) };
        console.log(`demo data, /public/cities/:id: ${Math.round(demoCity.cached.rps)} req/s cached, ${Math.round(demoCity.cold.rps)} req/s cold`);
        await demo.child.stop();
        await demoCold.child.stop();
      } else {
        demoDataDir = `${dataDir}-demo`;
        fs.cpSync(dataDir, demoDataDir, { recursive: true });
      }

      const chunksDir = path.join(dataDir, 'scale');
      let started = performance.now();
      const set = generateScaleBundles({ count: SCALE, outDir: chunksDir, demoBundle: path.join(ROOT, 'demo/bundle.json') });
      const generateS = (performance.now() - started) / 1000;
      probes = set.probes;
      console.log(
        `generated ${set.cities} communes in ${set.groups} EPCI (${set.cities * STREET_RULES_PER_CITY} street rules), ${set.files.length} files, ${(set.bytes / 2 ** 20).toFixed(0)} MiB in ${generateS.toFixed(1)} s`,
      );
      started = performance.now();
      for (const file of set.files) {
        const result = await runNode(['src/cli.ts', 'import', file], env);
        if (result.code !== 0) throw new Error(`${file}:\n${result.output}`);
        fs.rmSync(file);
      }
      const importS = (performance.now() - started) / 1000;
      console.log(`imported in ${importS.toFixed(1)} s: ${(set.cities / importS).toFixed(0)} cities/s (${set.files.length} CLI runs of ${CHUNK} cities)`);
      scale = { communes: set.cities, groups: set.groups, files: set.files.length, bundleMiB: Math.round(set.bytes / 2 ** 20), generateS, importS, citiesPerS: set.cities / importS };
    }

    const npmStartReadyMs = await measureNpmStart(env);
    console.log(`npm start on the existing data directory: /ready 200 after ${npmStartReadyMs} ms (target ${READY_TARGET_MS})`);

    let { port: ourPort, child: ours, readyMs } = await startService();
    console.log(`service ready in ${readyMs} ms (pid ${ours.proc.pid})`);
    await new Promise((r) => setTimeout(r, 2000));
    const rssAtRestMiB = rssMiB(ours.proc.pid!);
    const sampler = rssSampler(ours.proc.pid!);
    console.log(`RSS at rest: ${rssAtRestMiB} MiB`);

    // Capture the very bytes the service answers, for the limit server to replay.
    const captured = [];
    for (const route of ratioRoutes) {
      for (const encoding of ['identity', 'br']) {
        // node:http, not fetch: the bytes exactly as sent, never decompressed.
        const res = await rawGet(`http://127.0.0.1:${ourPort}${route}`, encoding === 'br' ? { 'accept-encoding': 'br' } : {});
        const body = res.body;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === 'string' && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
        }
        captured.push({ key: `GET ${route} ${encoding}`, status: res.status, headers, body: body.toString('base64') });
      }
    }
    const capturedFile = path.join(dataDir, 'captured.json');
    fs.writeFileSync(capturedFile, JSON.stringify(captured));
    const startLimit = async () => {
      const port = await freePort();
      const child = startNode(['bench/limit-server.ts', capturedFile, String(port)], {}, undefined, SERVER_CPUS);
      children.push(child);
      await waitFor(`http://127.0.0.1:${port}/`, child);
      return port;
    };
    const limitPort = await startLimit();
    // With --aa, a second limit process measured like ours: what this machine's noise alone does to a ratio.
    const twinPort = opts.aa ? await startLimit() : null;

    const rows: Row[] = [];
    for (const route of ratioRoutes) {
      for (const encoding of ['identity', 'br']) {
        const headers = { 'accept-encoding': encoding };
        const oursUrl = `http://127.0.0.1:${ourPort}${route}`;
        const limitUrl = `http://127.0.0.1:${limitPort}${route}`;
        await cannon(oursUrl, headers, WARMUP);
        await cannon(limitUrl, headers, WARMUP);
        const twinUrl = twinPort === null ? null : `http://127.0.0.1:${twinPort}${route}`;
        if (twinUrl) await cannon(twinUrl, headers, WARMUP);
        const o: Figures[] = [];
        const l: Figures[] = [];
        const tw: Figures[] = [];
        for (let i = 0; i < TURNS; i++) {
          // A turn is SLICES short stretches of each, alternating, so that a change in this shared machine's speed
          // (a neighbour's burst) falls on both sides of the ratio rather than on one.
          const os: Figures[] = [];
          const ls: Figures[] = [];
          const tws: Figures[] = [];
          for (let k = 0; k < SLICES; k++) {
            os.push(await cannon(oursUrl, headers, DURATION / SLICES));
            ls.push(await cannon(limitUrl, headers, DURATION / SLICES));
            if (twinUrl) tws.push(await cannon(twinUrl, headers, DURATION / SLICES));
          }
          o.push(mean(os));
          l.push(mean(ls));
          if (twinUrl) tw.push(mean(tws));
        }
        // An unsteady service (fast one turn, slow the next) must not pass on its mean: the worst turn counts.
        const turns = o.map((x, i) => x.rps / l[i].rps);
        const noise = twinUrl ? tw.map((x, i) => x.rps / l[i].rps) : undefined;
        const row = { route, encoding, ours: mean(o), limit: mean(l), ratio: Math.min(...turns), target: READ_TARGET, turns, noise };
        rows.push(row);
        printRow(row);
      }
    }

    // The streamed list: downloaded whole, plain then brotli, with the service's peak RSS meanwhile.
    const streams: Record<string, unknown>[] = [];
    if (streamed && routes.includes('/public/cities')) {
      for (const encoding of ['identity', 'br']) {
        sampler.reset();
        const got = await download(`http://127.0.0.1:${ourPort}/public/cities`, encoding === 'br' ? { 'accept-encoding': 'br' } : {});
        if (got.status !== 200 || got.encoding !== encoding) throw new Error(`GET /public/cities (${encoding}): ${got.status} ${got.encoding}`);
        const entry = { encoding, MiB: got.bytes / 2 ** 20, seconds: got.seconds, MiBPerS: got.bytes / 2 ** 20 / got.seconds, peakRssMiB: sampler.peak() };
        streams.push(entry);
        console.log(`GET /public/cities streamed (${encoding}): ${entry.MiB.toFixed(0)} MiB in ${entry.seconds.toFixed(1)} s (${entry.MiBPerS.toFixed(1)} MiB/s), peak RSS ${entry.peakRssMiB} MiB`);
      }
    }
    // Per-city reads that miss the cache: every city's queries, on the data this run serves. With a copy of the
    // demo database, the same figures on it, alternating (scale, demo, scale, demo).
    let coldCity: Figures | null = null;
    if (!opts.only || `/public/cities/${city.id}`.includes(opts.only)) {
      const ids = SCALE > 0 ? await allCityIds(ourPort) : demoCityIds;
      // Cold figures come from services started with the cache off; on PGlite one process per data directory, so the
      // cached service is stopped meanwhile and started again afterwards.
      const coldPhase = async <T>(measure: () => Promise<T>): Promise<T> => {
        if (!env.DATABASE_URL) await ours.stop();
        const result = await measure();
        if (!env.DATABASE_URL) ({ port: ourPort, child: ours } = await startService());
        return result;
      };
      if (demoDataDir) {
        const demo = await startService({ DATA_DIR: demoDataDir });
        const cityUrl = (port: number) => `http://127.0.0.1:${port}/public/cities/${city.id}`;
        const turns = { scaleCached: [] as Figures[], demoCached: [] as Figures[], scaleCold: [] as Figures[], demoCold: [] as Figures[] };
        await cannon(cityUrl(ourPort), {}, WARMUP);
        await cannon(cityUrl(demo.port), {}, WARMUP);
        for (let i = 0; i < 2; i++) {
          turns.scaleCached.push(await cannon(cityUrl(ourPort), {}, DURATION));
          turns.demoCached.push(await cannon(cityUrl(demo.port), {}, DURATION));
        }
        await demo.child.stop();
        await coldPhase(async () => {
          const scaleCold = await startService(UNCACHED);
          const demoCold = await startService({ ...UNCACHED, DATA_DIR: demoDataDir! });
          await coldCityReads(scaleCold.port, ids, WARMUP);
          await coldCityReads(demoCold.port, demoCityIds, WARMUP);
          for (let i = 0; i < 2; i++) {
            turns.scaleCold.push(await coldCityReads(scaleCold.port, ids, DURATION));
            turns.demoCold.push(await coldCityReads(demoCold.port, demoCityIds, DURATION));
          }
          await scaleCold.child.stop();
          await demoCold.child.stop();
        });
        coldCity = mean(turns.scaleCold);
        demoCity = { cached: mean(turns.demoCached), cold: mean(turns.demoCold) };
        const row = { route: '/public/cities/:id at scale vs demo (cached)', encoding: 'identity', ours: mean(turns.scaleCached), limit: demoCity.cached, ratio: 0, target: SCALE_TARGET };
        row.ratio = row.ours.rps / row.limit.rps;
        rows.push(row);
        printRow(row);
      } else {
        coldCity = await coldPhase(async () => {
          const cold = await startService(UNCACHED);
          await coldCityReads(cold.port, ids, WARMUP);
          const figures = await coldCityReads(cold.port, ids, DURATION);
          await cold.child.stop();
          return figures;
        });
        if (demoCity) {
          const cachedRow = rows.find((r) => r.route === `/public/cities/${city.id}` && r.encoding === 'identity');
          if (cachedRow) {
            const row = { route: '/public/cities/:id at scale vs demo (cached)', encoding: 'identity', ours: cachedRow.ours, limit: demoCity.cached, ratio: cachedRow.ours.rps / demoCity.cached.rps, target: SCALE_TARGET };
            rows.push(row);
            printRow(row);
          }
        }
      }
      console.log(`\n/public/cities/:id, each request a cache miss over ${ids.length} cities: ${Math.round(coldCity.rps)} req/s, p50 ${coldCity.p50} ms, p99 ${coldCity.p99} ms`);
    }
    if (demoCity && coldCity) {
      const row = { route: '/public/cities/:id at scale vs demo (cache miss)', encoding: 'identity', ours: coldCity, limit: demoCity.cold, ratio: coldCity.rps / demoCity.cold.rps, target: SCALE_TARGET };
      rows.push(row);
      printRow(row);
    }

    const rssServingMiB = sampler.peak();
    sampler.stop();

    // Writes: the route against the same upsert straight through the driver, at the same concurrency,
    // alternating (ours, raw, ours, raw). The embedded database is single-process: the raw upserts run while the
    // service is stopped, and the service is started again on the same data directory for its second turn.
    const challengeId = city.challenges.find((c: any) => !c.requiredChallengeId)?.id;
    let write: Row | null = null;
    if (challengeId && (!opts.only || 'complete'.includes(opts.only))) {
      const body = () => JSON.stringify({ deviceId: `bench-${randomUUID()}`, challengeId, score: Math.round(Math.random() * 100) });
      const post = (port: number, duration: number) =>
        cannon(`http://127.0.0.1:${port}/public/challenges/complete`, { 'content-type': 'application/json' }, duration, {
          method: 'POST',
          requests: [{ method: 'POST', setupRequest: (req: any) => ({ ...req, body: body() }) }],
        });
      const raw = () => measureRawUpserts({ databaseUrl: env.DATABASE_URL || null, dataDir, challengeId, concurrency: CONNECTIONS, durationS: DURATION });
      const o: Figures[] = [];
      const r: Figures[] = [];
      let service: { port: number; child: Child } = { port: ourPort, child: ours };
      for (let turn = 0; turn < 2; turn++) {
        if (turn > 0) service = await startService();
        await post(service.port, WARMUP);
        o.push(await post(service.port, DURATION));
        await service.child.stop();
        r.push(await raw());
      }
      write = { route: 'POST /public/challenges/complete', encoding: '-', ours: mean(o), limit: mean(r), ratio: 0, target: WRITE_TARGET };
      write.ratio = write.ours.rps / write.limit.rps;
      rows.push(write);
      printRow(write);
    }

    // The admin write path: a PATCH of a waste type and of an exception against the statements they cannot
    // do without sent raw (bench/admin-writes.ts), alternating as the completions are; then the public city read just
    // after a change: how long until it shows it (this instance, and on PostgreSQL another one), and its rate in the
    // seconds after against the cached rate before.
    const wasteTypeId: string = city.wasteTypes[0].id;
    const exceptionCity = bundle.cities.find((c: any) => c.status === 'ACTIF' && c.wasteCollectionPlaces.some((p: any) => p.exceptions?.length));
    const exceptionId: string | undefined = exceptionCity?.wasteCollectionPlaces.find((p: any) => p.exceptions?.length).exceptions[0].id;
    let admin: Record<string, unknown> | null = null;
    if (exceptionId && (!opts.only || 'admin'.includes(opts.only))) {
      let n = 0;
      const patch = (port: number, token: string, url: string, duration: number) =>
        cannon(`http://127.0.0.1:${port}${url}`, { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': '*' }, duration, {
          method: 'PATCH',
          requests: [{ method: 'PATCH', setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ description: `Banc ${++n}` }) }) }],
        });
      const kinds: [RawAdminWrite, string, string][] = [
        ['waste type', `/admin/waste-types/${wasteTypeId}`, wasteTypeId],
        ['exception', `/admin/exceptions/${exceptionId}`, exceptionId],
      ];
      const o: Record<string, Figures[]> = { 'waste type': [], exception: [] };
      const r: Record<string, Figures[]> = { 'waste type': [], exception: [] };
      const visibleMs: number[] = [];
      const otherInstanceMs: number[] = [];
      const before: Figures[] = [];
      const after: Figures[] = [];
      const cityUrl = (port: number) => `http://127.0.0.1:${port}/public/cities/${city.id}`;
      // The embedded database takes one process: the services before this one are stopped.
      await ours.stop();
      for (let turn = 0; turn < 2; turn++) {
        const service = await startService();
        const token = await adminToken(service.port);
        for (const [kind, url] of kinds) {
          await patch(service.port, token, url, WARMUP);
          o[kind].push(await patch(service.port, token, url, DURATION));
        }
        // The read after a write: cached rate, a change, its time to show, then the rate from one second after it.
        await cannon(cityUrl(service.port), {}, WARMUP);
        before.push(await cannon(cityUrl(service.port), {}, DURATION));
        const other = env.DATABASE_URL ? await startService() : null;
        if (other) await cannon(cityUrl(other.port), {}, WARMUP);
        const changedAt = performance.now();
        visibleMs.push(await timeToVisible({ writePort: service.port, readPort: service.port, token, cityId: city.id, wasteTypeId }));
        if (other) {
          otherInstanceMs.push(await timeToVisible({ writePort: service.port, readPort: other.port, token, cityId: city.id, wasteTypeId }));
          await other.child.stop();
        }
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - changedAt))));
        after.push(await cannon(cityUrl(service.port), {}, DURATION));
        await service.child.stop();
        for (const [kind, , id] of kinds) {
          r[kind].push(await measureRawAdminWrites({ databaseUrl: env.DATABASE_URL || null, dataDir, kind, id, concurrency: CONNECTIONS, durationS: DURATION }));
        }
      }
      for (const [kind] of kinds) {
        const row = { route: `PATCH /admin/${kind === 'exception' ? 'exceptions' : 'waste-types'}/:id`, encoding: '-', ours: mean(o[kind]), limit: mean(r[kind]), ratio: 0, target: ADMIN_WRITE_TARGET };
        row.ratio = row.ours.rps / row.limit.rps;
        rows.push(row);
        printRow(row);
      }
      const readRow = { route: 'GET /public/cities/:id 1 s after an admin write vs before', encoding: 'identity', ours: mean(after), limit: mean(before), ratio: 0, target: READ_AFTER_WRITE_TARGET };
      readRow.ratio = readRow.ours.rps / readRow.limit.rps;
      rows.push(readRow);
      printRow(readRow);
      admin = { visibleMs, otherInstanceMs };
      console.log(`an admin write shows in the public city after ${visibleMs.join(', ')} ms on its instance${otherInstanceMs.length ? `, ${otherInstanceMs.join(', ')} ms on another` : ''}`);
    }

    // Lookups: by address with a typo and by position, each request a distinct URL so a cache miss
    // (bench/lookup.ts), against the bare trigram and containment queries sent through the same driver by as many
    // loops as connections, the service stopped meanwhile (one process on PGlite), alternating as the writes are.
    let lookup: Record<string, unknown> | null = null;
    if (!opts.only || '/public/places/lookup'.includes(opts.only)) {
      await ours.stop();
      const kinds = ['address', 'position'] as const;
      const counters = { address: { k: 0 }, position: { k: 0 } };
      const baseCounters = { address: { k: 0 }, position: { k: 0 } };
      const pathOf = (kind: (typeof kinds)[number], k: number) => (kind === 'address' ? addressPath(addressRequest(probes, k)) : positionPath(positionRequest(probes, k)));
      const serve = (port: number, kind: (typeof kinds)[number], duration: number) =>
        cannon(`http://127.0.0.1:${port}${pathOf(kind, 0)}`, {}, duration, {
          requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: pathOf(kind, counters[kind].k++) }) }],
        });
      const o: Record<string, Figures[]> = { address: [], position: [] };
      const r: Record<string, Figures[]> = { address: [], position: [] };
      const indexS: number[] = [];
      let firstShare = 0;
      const floor: Record<string, Figures[]> = { address: [], position: [] };
      let lookupLimit: { port: number; child: Child } | null = null;
      for (let turn = 0; turn < 2; turn++) {
        const service = await startService();
        if (turn === 0) {
          firstShare = await verifyLookups(service.port, probes, 50);
          console.log(`lookup check: 50 addresses with a typo found their place (${Math.round(firstShare * 100)} % first), 50 positions their area`);
          // For the reader: the HTTP floor of such an answer, the limit server replaying one of each (same bytes).
          const captured = [];
          for (const kind of kinds) {
            const res = await rawGet(`http://127.0.0.1:${service.port}${pathOf(kind, 0)}`, {});
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (typeof value === 'string' && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
            }
            captured.push({ key: `GET ${pathOf(kind, 0)} identity`, status: res.status, headers, body: res.body.toString('base64') });
          }
          const file = path.join(dataDir, 'captured-lookup.json');
          fs.writeFileSync(file, JSON.stringify(captured));
          const port = await freePort();
          lookupLimit = { port, child: startNode(['bench/limit-server.ts', file, String(port)], {}, undefined, SERVER_CPUS) };
          children.push(lookupLimit.child);
          await waitFor(`http://127.0.0.1:${port}/`, lookupLimit.child);
        }
        for (const kind of kinds) {
          await serve(service.port, kind, WARMUP);
          o[kind].push(await serve(service.port, kind, DURATION));
          const floorUrl = `http://127.0.0.1:${lookupLimit!.port}${pathOf(kind, 0)}`;
          await cannon(floorUrl, {}, WARMUP);
          floor[kind].push(await cannon(floorUrl, {}, DURATION));
        }
        await service.child.stop();
        const base = await openBaselineDatabase({ databaseUrl: env.DATABASE_URL || null, dataDir });
        indexS.push(base.indexS);
        try {
          const queries = { address: (k: number) => bareTrigram(base.db, probes, k), position: (k: number) => bareContainment(base.db, probes, k) };
          for (const kind of kinds) {
            await measureBaseline(queries[kind], { concurrency: CONNECTIONS, durationS: WARMUP, counter: baseCounters[kind] });
            r[kind].push(await measureBaseline(queries[kind], { concurrency: CONNECTIONS, durationS: DURATION, counter: baseCounters[kind] }));
          }
        } finally {
          await base.close();
        }
      }
      for (const kind of kinds) {
        const route = kind === 'address' ? 'GET /public/places/lookup?address= (a typo) vs bare trigram query' : 'GET /public/places/lookup?lat=&lon= vs bare containment query';
        const row: Row = { route, encoding: 'identity', ours: mean(o[kind]), limit: mean(r[kind]), ratio: 0, target: LOOKUP_TARGET, p99Max: LOOKUP_P99_MS };
        row.ratio = row.ours.rps / row.limit.rps;
        rows.push(row);
        printRow(row);
      }
      await lookupLimit?.child.stop();
      const floors = { address: mean(floor.address), position: mean(floor.position) };
      for (const kind of kinds) {
        const f = floors[kind];
        console.log(`HTTP floor of a ${kind} lookup's answer (limit server, same bytes): ${Math.round(f.rps)} req/s, p50/p99 ${f.p50} / ${f.p99} ms; ours/floor ${(mean(o[kind]).rps / f.rps).toFixed(2)}, bare query/floor ${(mean(r[kind]).rps / f.rps).toFixed(2)}`);
      }
      lookup = { addressProbes: probes.addresses.length, positionProbes: probes.positions.length, trigramIndexS: indexS, typoFoundFirstShare: firstShare, httpFloor: floors };
      console.log(`lookups over ${probes.addresses.length} streets and ${probes.positions.length} areas; the baseline's trigram index built in ${indexS.map((s) => s.toFixed(1)).join(', ')} s`);
    }

    // Collections that move: a place's year of collections computed for every request (no response cache),
    // with its group's holiday rules and without them (the same groups' rules set to [] through the admin API),
    // alternating. The rules may cost at most 1.5 times as much: ratio (with / without) at least 1 / 1.5.
    let calendar: Record<string, unknown> | null = null;
    if (!opts.only || 'calendar'.includes(opts.only)) {
      // The embedded database takes one process: the services before this one are stopped.
      await ours.stop();
      const service = await startService(UNCACHED);
      const token = await adminToken(service.port);
      const places: { cityId: string; placeId: string }[] = bundle.cities
        .filter((c: any) => c.status === 'ACTIF')
        .flatMap((c: any) => (c.wasteCollectionPlaces ?? []).map((p: any) => ({ cityId: c.id, placeId: p.id })));
      const yearPath = (k: number) => {
        const { cityId, placeId } = places[k % places.length];
        const from = new Date(Date.UTC(2026, 10, 1 + (k % 28)));
        const to = new Date(from.getTime() + 364 * 86_400_000);
        return `/public/cities/${cityId}/places/${placeId}/collections?from=${from.toISOString().slice(0, 10)}&to=${to.toISOString().slice(0, 10)}`;
      };
      const counter = { k: 0 };
      const serve = (duration: number) =>
        cannon(`http://127.0.0.1:${service.port}${yearPath(0)}`, {}, duration, {
          requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: yearPath(counter.k++) }) }],
        });
      const groupRules: { id: string; rules: unknown[] }[] = bundle.cityGroups.map((g: any) => ({ id: g.id, rules: g.holidayRules ?? [] }));
      const setRules = async (withRules: boolean) => {
        for (const group of groupRules) {
          const url = `http://127.0.0.1:${service.port}/admin/city-groups/${group.id}`;
          const auth = { authorization: `Bearer ${token}` };
          const etag = (await fetch(url, { headers: auth })).headers.get('etag')!;
          const res = await fetch(url, {
            method: 'PATCH',
            headers: { ...auth, 'if-match': etag, 'content-type': 'application/json' },
            body: JSON.stringify({ holidayRules: withRules ? group.rules : [] }),
          });
          if (res.status !== 200) throw new Error(`PATCH holidayRules: ${res.status} ${await res.text()}`);
        }
      };
      const movedIn = async () => {
        const year = (await (await fetch(`http://127.0.0.1:${service.port}${yearPath(0)}`)).json()) as { status: string }[];
        return year.filter((o) => o.status === 'MOVED').length;
      };
      const withRules: Figures[] = [];
      const without: Figures[] = [];
      const moved = { withRules: 0, without: 0 };
      await serve(WARMUP);
      for (let turn = 0; turn < 2; turn++) {
        await setRules(true);
        moved.withRules = await movedIn();
        withRules.push(await serve(DURATION));
        await setRules(false);
        moved.without = await movedIn();
        without.push(await serve(DURATION));
      }
      await setRules(true);
      await service.child.stop();
      if (groupRules.every((g) => g.rules.length === 0) || moved.withRules === 0) throw new Error('calendar bench: the demo\'s holiday rules moved nothing');
      const row: Row = {
        route: 'GET …/places/:placeId/collections (a year, uncached) with the holiday rules vs without',
        encoding: 'identity',
        ours: mean(withRules),
        limit: mean(without),
        ratio: 0,
        target: CALENDAR_RULES_TARGET,
      };
      row.ratio = row.ours.rps / row.limit.rps;
      rows.push(row);
      printRow(row);
      calendar = { places: places.length, requests: counter.k, movedInFirstPlaceYear: moved };
      console.log(`calendar: ${places.length} places, a year each; the first place's year has ${moved.withRules} collections moved by the rules, ${moved.without} without`);
    }

    // The sorting guide: what citizens type, a typo in each, distinct queries (bench/search.ts), against the
    // bare trigram query on waste_type_detail through the same driver, the service stopped meanwhile, alternating.
    let search: Record<string, unknown> | null = null;
    if (!opts.only || '/public/cities/:cityId/sorting-guide'.includes(opts.only)) {
      await ours.stop();
      const searches = searchProbes(bundle);
      const counter = { k: 0 };
      const baseCounter = { k: 0 };
      const serve = (port: number, duration: number) =>
        cannon(`http://127.0.0.1:${port}${searchPath(searchRequest(searches, 0))}`, {}, duration, {
          requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: searchPath(searchRequest(searches, counter.k++)) }) }],
        });
      const o: Figures[] = [];
      const r: Figures[] = [];
      let firstShare = 0;
      for (let turn = 0; turn < 2; turn++) {
        const service = await startService();
        if (turn === 0) {
          firstShare = await verifySearches(service.port, searches, 100);
          console.log(`search check: 100 materials typed with a typo, ${Math.round(firstShare * 100)} % found first`);
        }
        await serve(service.port, WARMUP);
        o.push(await serve(service.port, DURATION));
        await service.child.stop();
        const base = await openBaselineDatabase({ databaseUrl: env.DATABASE_URL || null, dataDir, trigramIndex: SEARCH_TRIGRAM_INDEX });
        try {
          const query = (k: number) => bareSearch(base.db, searches, k);
          await measureBaseline(query, { concurrency: CONNECTIONS, durationS: WARMUP, counter: baseCounter });
          r.push(await measureBaseline(query, { concurrency: CONNECTIONS, durationS: DURATION, counter: baseCounter }));
        } finally {
          await base.close();
        }
      }
      const row: Row = { route: 'GET /public/cities/:cityId/sorting-guide?q= (a typo) vs bare trigram query', encoding: 'identity', ours: mean(o), limit: mean(r), ratio: 0, target: SEARCH_TARGET };
      row.ratio = row.ours.rps / row.limit.rps;
      rows.push(row);
      printRow(row);
      search = { cities: searches.length, materials: searches.reduce((n, p) => n + p.materials.length, 0), typoFoundFirstShare: firstShare, requests: counter.k, bareQueries: baseCounter.k };
    }

    // Resident requests (bench/requests.ts): creations against the bare insert of their row through the same driver,
    // the service stopped meanwhile (one process on PGlite), alternating; then the staff queue over SEED_REQUESTS rows.
    let requests: Record<string, unknown> | null = null;
    const queue: { case: string; statistics: string; connections: number; figures: Figures }[] = [];
    if (!opts.only || '/public/requests'.includes(opts.only)) {
      await ours.stop();
      // The per-IP creation limit out of reach, as the general one is; each request names a device of its own.
      const requestsEnv = { REQUESTS_IP_MAX: '1000000' };
      const databaseUrl = env.DATABASE_URL || null;
      const post = (port: number, duration: number) =>
        cannon(`http://127.0.0.1:${port}/public/requests`, { 'content-type': 'application/json' }, duration, {
          method: 'POST',
          requests: [{ method: 'POST', setupRequest: (req: any) => ({ ...req, body: creationBody(city.id) }) }],
        });
      const o: Figures[] = [];
      const r: Figures[] = [];
      for (let turn = 0; turn < 2; turn++) {
        const service = await startService(requestsEnv);
        await post(service.port, WARMUP);
        o.push(await post(service.port, DURATION));
        await service.child.stop();
        r.push(await measureRawRequestInserts({ databaseUrl, dataDir, cityId: city.id, concurrency: CONNECTIONS, warmupS: WARMUP, durationS: DURATION }));
      }
      const row: Row = { route: 'POST /public/requests (vs bare insert)', encoding: '-', ours: mean(o), limit: mean(r), ratio: 0, target: REQUEST_CREATE_TARGET };
      row.ratio = row.ours.rps / row.limit.rps;
      rows.push(row);
      printRow(row);

      const seeding = await openDatabase({ databaseUrl, dataDir: path.resolve(dataDir), poolSize: 2 });
      const analyze = () => sql`ANALYZE resident_request, request_follower, request_update`.execute(seeding.db);
      // The creations' rows out first, so that the queue holds the seeded mix alone.
      await removeBenchRequests(seeding.db);
      let started = performance.now();
      const groups = await seedRequests(seeding.db, SEED_REQUESTS);
      const seedS = (performance.now() - started) / 1000;
      console.log(`seeded ${SEED_REQUESTS} requests in ${seedS.toFixed(1)} s: ${groups.map((g) => `${g.total} in group ${g.groupId}`).join(', ')}`);
      // PGlite has no autovacuum: the service first plans with the statistics the demo import's ANALYZE left.
      if (databaseUrl) await analyze();
      await seeding.close();
      const phases = databaseUrl ? ['ANALYZE'] : ['as imported', 'ANALYZE'];
      for (const statistics of phases) {
        if (statistics === 'ANALYZE' && !databaseUrl) {
          const db = await openDatabase({ databaseUrl, dataDir: path.resolve(dataDir), poolSize: 1 });
          await sql`ANALYZE resident_request, request_follower, request_update`.execute(db.db);
          await db.close();
        }
        const service = await startService();
        const auth = { authorization: `Bearer ${await adminToken(service.port)}` };
        for (const { name, query, firstPages } of QUEUE_CASES) {
          const pages: { groupId: string; totalPages: number }[] = [];
          for (const { groupId } of groups) {
            const res = await fetch(`http://127.0.0.1:${service.port}/admin/requests?cityGroupId=${groupId}${query}`, { headers: auth });
            if (res.status !== 200) throw new Error(`GET /admin/requests: ${res.status} ${await res.text()}`);
            pages.push({ groupId, totalPages: ((await res.json()) as { meta: { totalPages: number } }).meta.totalPages });
          }
          const counter = { k: 0 };
          const serve = (connections: number, duration: number) =>
            cannon(`http://127.0.0.1:${service.port}${queuePath(query, pages, firstPages, 0)}`, auth, duration, {
              connections,
              requests: [{ method: 'GET', setupRequest: (req: any) => ({ ...req, path: queuePath(query, pages, firstPages, counter.k++) }) }],
            });
          // One agent at a time (the latency of a page), then the run's connections at once (queueing included).
          await serve(1, WARMUP);
          for (const connections of [1, CONNECTIONS]) {
            const figures = await serve(connections, DURATION);
            queue.push({ case: name, statistics, connections, figures });
            console.log(
              `GET /admin/requests ${name} (${statistics}; ${pages.map((p) => p.totalPages).join(' and ')} pages), ${connections} connection(s): ${Math.round(figures.rps)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms (target < ${QUEUE_P99_MS})`,
            );
          }
        }
        await service.child.stop();
      }
      if (databaseUrl) {
        // The database outlives the run.
        const cleaning = await openDatabase({ databaseUrl, dataDir: null, poolSize: 1 });
        started = performance.now();
        const removed = await removeBenchRequests(cleaning.db);
        await cleaning.close();
        console.log(`removed the run's ${removed} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
      requests = { seeded: SEED_REQUESTS, seedS, groups, queue };
    }

    // Bulky-waste pickups: the last places of a day raced for by RACE_BOOKINGS bookings at once on two instances of one
    // PostgreSQL database (bench/bulky-pickups.ts). Exactness is a result of its own, not a target: it fails the run.
    let bulkyRace: Record<string, unknown> | null = null;
    const bulkyProblems: string[] = [];
    if (!opts.only || '/public/cities/:cityId/bulky-pickups'.includes(opts.only)) {
      if (!env.DATABASE_URL) {
        console.log('\nbulky-pickup race: skipped, it needs two instances on one PostgreSQL (set DATABASE_URL)');
        bulkyRace = { skipped: 'needs DATABASE_URL' };
      } else {
        await ours.stop();
        const race = await runBulkyRace({ databaseUrl: env.DATABASE_URL, env, cityId: city.id, startService, keep: opts.keep });
        const row: Row = {
          route: `POST /public/requests encombrants, ${RACE_BOOKINGS} at once on 2 instances for the last ${LAST_PLACES} places vs ${RACE_BOOKINGS} GET …/bulky-pickups`,
          encoding: '-',
          ours: race.booking,
          limit: race.read,
          ratio: race.booking.rps / race.read.rps,
          // No speed target (printed `-`): the counts below are this row's check.
          target: 0,
        };
        rows.push(row);
        printRow(row);
        const others = Object.entries(race.statuses).filter(([s]) => s !== '201' && s !== '409');
        console.log(
          `bulky-pickup race (day ${race.slotDate}, capacity ${race.capacity}, ${race.alreadyBooked} booked before): ${race.created} × 201 (must be ${LAST_PLACES}), ` +
            `${race.full} × 409 (must be ${RACE_BOOKINGS - LAST_PLACES}), ${race.other} other (must be 0${others.length ? `: ${others.map(([s, n]) => `${n} × ${s}`).join(', ')}` : ''}), ` +
            `remaining ${race.remaining} after (must be 0); the burst took ${Math.round(race.booking.ms)} ms, ${RACE_BOOKINGS} GETs ${race.reads.map((r) => Math.round(r.ms)).join(' and ')} ms ` +
            `(before, after): ${(race.booking.ms / race.read.ms).toFixed(2)} times as long — ${race.problems.length ? `WRONG: ${race.problems.join('; ')}` : 'exact'}`,
        );
        bulkyProblems.push(...race.problems);
        bulkyRace = { ...race, timeRatio: race.booking.ms / race.read.ms };
      }
    }

    console.log(`\nRSS: ${rssAtRestMiB} MiB at rest, ${rssServingMiB} MiB at most while serving; npm start to /ready: ${npmStartReadyMs} ms`);
    const result = {
      when: new Date().toISOString(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: { cpus: os.cpus().length, node: process.version, database: env.DATABASE_URL ? 'postgres' : 'pglite' },
      settings: { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, pipelining: PIPELINING },
      scale,
      readyMs,
      npmStartReadyMs,
      rssAtRestMiB,
      rssServingMiB,
      coldCity,
      demoCity,
      streams,
      admin,
      lookup,
      search,
      calendar,
      requests,
      bulkyRace,
      rows,
    };
    const out = path.join(ROOT, 'bench/results', `bench-${SCALE ? `scale-${SCALE}-` : ''}${result.when.replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`\nwritten ${path.relative(ROOT, out)}`);
    const failing = rows.filter((r) => r.ratio < r.target).map((r) => `${r.route} (${r.encoding}) ${r.ratio.toFixed(2)} < ${r.target}`);
    for (const r of rows) if (r.p99Max !== undefined && r.ours.p99 >= r.p99Max) failing.push(`${r.route} p99 ${r.ours.p99} ms >= ${r.p99Max} ms`);
    for (const q of queue.filter((q) => q.figures.p99 >= QUEUE_P99_MS)) failing.push(`GET /admin/requests ${q.case} (${q.statistics}, ${q.connections} connection(s)) p99 ${q.figures.p99} ms >= ${QUEUE_P99_MS} ms`);
    if (npmStartReadyMs > READY_TARGET_MS) failing.push(`npm start to /ready ${npmStartReadyMs} ms > ${READY_TARGET_MS} ms`);
    if (streams.some((s) => (s.peakRssMiB as number) >= 1024)) failing.push('RSS reached 1 GiB while streaming GET /public/cities');
    const slowest = admin ? Math.max(...(admin.visibleMs as number[]), ...(admin.otherInstanceMs as number[])) : 0;
    if (slowest > 1000) failing.push(`an admin write took ${slowest} ms to reach the public city`);
    if (failing.length && !opts['no-fail']) {
      console.log(`below target: ${failing.join('; ')}`);
      process.exitCode = 1;
    }
    if (bulkyProblems.length) {
      console.log(`bulky-pickup race not exact: ${bulkyProblems.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

/** The ids of the ACTIF cities that belong to a group (nearly all of them), from the small /public/city-groups. */
async function allCityIds(port: number): Promise<string[]> {
  const groups = (await (await fetch(`http://127.0.0.1:${port}/public/city-groups`)).json()) as { cities: { id: string }[] }[];
  return groups.flatMap((g) => g.cities.map((c) => c.id));
}

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let headerPrinted = false;
function printRow(row: Row) {
  if (!headerPrinted) {
    headerPrinted = true;
    console.log('\n| route | encoding | ours req/s | limit req/s | ratio | target | ours p50/p99 ms | limit p50/p99 ms |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  }
  const f = (x: Figures) => `${x.p50.toFixed(1)} / ${x.p99.toFixed(1)}`;
  console.log(
    `| ${row.route} | ${row.encoding} | ${Math.round(row.ours.rps)} | ${Math.round(row.limit.rps)} | ${row.ratio.toFixed(2)}${row.turns ? ` (${row.turns.map((t) => t.toFixed(2)).join(', ')})` : ''} | ${row.target || '-'}${row.p99Max ? `, p99 < ${row.p99Max}` : ''} | ${f(row.ours)} | ${f(row.limit)} |`,
  );
  if (row.noise) {
    const worst = Math.min(...row.noise);
    console.log(`| ↳ limit against a second limit (--aa) | ${row.encoding} | | | ${worst.toFixed(2)} (${row.noise.map((t) => t.toFixed(2)).join(', ')}) | | | |`);
  }
}

if (opts.memory) {
  // The server's memory as `npm start` gives it (bench/memory.ts), on its own.
  const { missed } = await runMemoryBench();
  if (missed.length) {
    console.log(`below target: ${missed.join('; ')}`);
    if (!opts['no-fail']) process.exitCode = 1;
  }
} else if (opts.reminders) {
  // The evening's reminder run (bench/reminders.ts), on its own.
  const { ratio } = await runRemindersBench(Number(opts.reminders));
  if (ratio < REMINDERS_TARGET && !opts['no-fail']) {
    console.log(`below target: reminders ${ratio.toFixed(2)} < ${REMINDERS_TARGET}`);
    process.exitCode = 1;
  }
} else {
  await main();
}
