/**
 * `npm run bench -- --reminders N` (docs/api.md, reminders): the evening's reminder run for N devices against
 * the bare cost of encrypting and posting as many Web Push messages from one process.
 *
 * On a fresh database (PGlite in a temporary directory, or a schema of its own on DATABASE_URL, dropped after) with
 * the demo data, N push subscriptions (default 100,000) are spread over the demo places that have a collection on the
 * chosen day (the one, among the next two weeks, with the most such places), written in batches straight into the
 * table (a bench fixture, not N HTTP calls). One worker (src/reminders/worker.ts, its defaults: batches of 500, 32
 * sends at once) then runs one tick with its clock injected at 19:00 the evening before: it plans (N deliveries) and
 * sends them to a push service on loopback that reads each body and answers 201. The baseline, from the same
 * process, encrypts (aes128gcm, web-push's `encrypt`) and posts the same number of payloads to the same service
 * with the same concurrency, one VAPID header signed once and reused as the worker does; it runs before and after the
 * worker (the machine's load drifts) and the two times are averaged. Memory: RSS and V8 heap
 * before, at their peak during each run (sampled every 50 ms) and after, and the heap retained after a full
 * collection (every 5 s during a run, and before and after it); the worker streams subscriptions and deliveries in
 * batches, so what it retains must not grow with N.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import webPush from 'web-push';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { importBundleFile } from '../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../src/demo/load.ts';
import { computeCalendar } from '../src/domain/collection-calendar.ts';
import { dayInTimeZone, formatDayNumber, resolveTimeZone, startOfDayIn, wallClockParts } from '../src/kernel/dates.ts';
import { loadSchedules, planReminders } from '../src/reminders/planner.ts';
import { cachedReminderKeys } from '../src/reminders/keys.ts';
import { createReminderWorker } from '../src/reminders/worker.ts';
import { calendarUrl, reminderMessage } from '../src/reminders/messages.ts';
import { ROOT } from './processes.ts';

/** The evening's run at least half the rate of bare encrypt-and-post. */
export const REMINDERS_TARGET = 0.5;
/** The worker's own default (src/reminders/worker.ts): sends at once. */
const CONCURRENCY = 32;
const INSERT_BATCH = 1000;

const MiB = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

/** V8's full collection, to measure what is retained rather than what awaits collection. */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * RSS and heap, sampled every 50 ms until stopped: their peaks; and every 5 s the heap after a full collection (what
 * the run really holds: flat when it streams, growing with N if it kept rows).
 */
function memorySampler() {
  let rss = 0;
  let heap = 0;
  let retained = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const retain = () => {
    collectGarbage();
    retained = Math.max(retained, process.memoryUsage().heapUsed);
  };
  sample();
  const timer = setInterval(sample, 50);
  const gcTimer = setInterval(retain, 5000);
  return {
    stop() {
      clearInterval(timer);
      clearInterval(gcTimer);
      sample();
      return { rssMiB: MiB(rss), heapMiB: MiB(heap), retainedHeapMiB: MiB(retained) };
    },
  };
}

/** RSS, and the heap after a full collection. */
const memoryNow = () => {
  collectGarbage();
  const m = process.memoryUsage();
  return { rssMiB: MiB(m.rss), heapMiB: MiB(m.heapUsed) };
};

/** A push service on loopback that reads each request's body and answers 201 at once. */
async function startSink(): Promise<{ origin: string; count: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(201, { 'content-length': '0' });
      response.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function openBenchDatabase(databaseUrl: string | null): Promise<{ database: Database; close: () => Promise<void> }> {
  if (!databaseUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-bench-reminders-'));
    const database = await openDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(database.db);
    return {
      database,
      close: async () => {
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_reminders_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ databaseUrl, dataDir: null, poolSize: 1 });
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(admin.db);
  // The service's pool size (src/db/database.ts default).
  const database = await openDatabase({ databaseUrl, dataDir: null, schema, poolSize: 10 });
  await migrateToLatest(database.db, schema);
  return {
    database,
    close: async () => {
      await database.close();
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(admin.db);
      await admin.close();
    },
  };
}

/** A logger that keeps quiet but for errors. */
const quietLog = {
  level: 'warn',
  fatal: console.error,
  error: console.error,
  warn: console.warn,
  info: () => {},
  debug: () => {},
  trace: () => {},
  silent: () => {},
  child() {
    return quietLog;
  },
} as unknown as FastifyBaseLogger;

export async function runRemindersBench(n: number): Promise<{ ratio: number; result: Record<string, unknown> }> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const kind = databaseUrl ? 'postgres' : 'pglite';
  console.log(`reminders bench: ${n} devices, ${kind}`);
  const sink = await startSink();
  const { database, close } = await openBenchDatabase(databaseUrl);
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-bench-media-'));
  try {
    const db = database.db;
    await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date() });

    // The day, among the next two weeks, with a collection at the most places; 19:00 the evening before.
    const places = await db
      .selectFrom('collection_place as p')
      .innerJoin('city as c', 'c.id', 'p.city_id')
      .select(['p.id', 'p.city_id', 'c.time_zone'])
      .where('c.status', '=', 'ACTIF')
      .execute();
    const zone = resolveTimeZone(places[0].time_zone);
    const schedules = await loadSchedules(db, places.map((p) => p.id));
    const today = dayInTimeZone(new Date(), zone);
    let best = { day: today + 2, places: [] as typeof places };
    for (let day = today + 2; day < today + 16; day++) {
      const collected = places.filter((p) => resolveTimeZone(p.time_zone) === zone && computeCalendar(schedules.get(p.id)!, { from: day, to: day }).occurrences.length > 0);
      if (collected.length > best.places.length) best = { day, places: collected };
    }
    let eve = new Date(startOfDayIn(best.day, zone).getTime() - 5 * 3_600_000);
    // 19:00 on the clock of the place (a night of a change of time is an hour off otherwise).
    eve = new Date(eve.getTime() + (19 - wallClockParts(eve, zone)[3]) * 3_600_000);
    console.log(`collection day ${formatDayNumber(best.day)}: ${best.places.length} of ${places.length} places; clock at ${eve.toISOString()}`);

    // N subscriptions over those places, one browser key pair for all (each message is still encrypted anew).
    const ecdh = createECDH('prime256v1');
    const p256dh = ecdh.generateKeys().toString('base64url');
    const auth = randomBytes(16).toString('base64url');
    const insertStarted = performance.now();
    const now = new Date();
    for (let start = 0; start < n; start += INSERT_BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(n, start + INSERT_BATCH); i++) {
        const place = best.places[i % best.places.length];
        rows.push({
          id: randomUUID(),
          device_id: `bench-${i}`,
          city_id: place.city_id,
          place_id: place.id,
          waste_type_ids: '[]',
          time_of_day: '19:00',
          channel: 'WEB_PUSH' as const,
          endpoint: `${sink.origin}/push/${i}`,
          p256dh,
          auth,
          email: null,
          status: 'ACTIVE' as const,
          origin: 'http://localhost',
          planned_day: null,
          created_at: now,
          updated_at: now,
        });
      }
      await db.insertInto('reminder_subscription').values(rows).execute();
    }
    await sql`ANALYZE reminder_subscription`.execute(db);
    const insertS = (performance.now() - insertStarted) / 1000;
    console.log(`${n} subscriptions written in ${insertS.toFixed(1)} s`);

    const config = loadConfig({ DATA_DIR: os.tmpdir(), LOG_LEVEL: 'warn', WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
    const keys = await cachedReminderKeys(db, config)();

    // A reminder as the planner writes it (the same size as the worker's).
    const payload = JSON.stringify(
      reminderMessage({
        dayText: formatDayNumber(best.day),
        wasteTypeNames: ['Emballages', 'Ordures ménagères'],
        placeId: best.places[0].id,
        placeName: 'Centre-ville',
        calendarUrl: calendarUrl('http://localhost', best.places[0].city_id, best.places[0].id),
      }),
    );

    // The baseline: encrypt and post the same number of payloads, as many at once.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const audience = sink.origin;
    const { Authorization: authorization } = webPush.getVapidHeaders(audience, keys.vapid.subject, keys.vapid.publicKey, keys.vapid.privateKey, 'aes128gcm') as {
      Authorization: string;
    };
    const post = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const encrypted = webPush.encrypt(p256dh, auth, payload, 'aes128gcm');
        const request = http.request(
          `${sink.origin}/push/base-${i}`,
          {
            method: 'POST',
            agent,
            headers: {
              'Content-Type': 'application/octet-stream',
              'Content-Encoding': 'aes128gcm',
              'Content-Length': String(encrypted.cipherText.length),
              TTL: '3600',
              Urgency: 'normal',
              Authorization: authorization,
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => (response.statusCode === 201 ? resolve() : reject(new Error(`push service answered ${response.statusCode}`))));
          },
        );
        request.on('error', reject);
        request.end(encrypted.cipherText);
      });
    /** The baseline: encrypt and post `n` payloads, `CONCURRENCY` at a time; its time and peak memory. */
    const baseline = async () => {
      const before = memoryNow();
      const peak = memorySampler();
      const baseStarted = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < n) await post(next++);
        }),
      );
      return { seconds: (performance.now() - baseStarted) / 1000, before, peak: peak.stop() };
    };
    // Taken before and after the worker's run (the machine's load drifts), and averaged.
    const firstBaseline = await baseline();

    // The evening's run.
    const worker = createReminderWorker({ db, config, log: quietLog, now: () => eve });
    const workerBefore = memoryNow();
    const workerPeak = memorySampler();
    const started = performance.now();
    // The tick plans then sends; the planning is timed apart first (the tick's own planning then finds it done).
    const planned = await planReminders(db, { now: eve, batchSize: 500, publicBaseUrl: null });
    const planS = (performance.now() - started) / 1000;
    const summary = { ...(await worker.tick()), planned };
    const workerS = (performance.now() - started) / 1000;
    const workerMemory = workerPeak.stop();
    await worker.stop();
    const workerAfter = memoryNow();
    if (summary.sent !== n || sink.count() !== 2 * n) throw new Error(`the worker sent ${summary.sent} (push service received ${sink.count()}), not ${n}: ${JSON.stringify(summary)}`);
    const secondBaseline = await baseline();
    agent.destroy();
    const baseS = (firstBaseline.seconds + secondBaseline.seconds) / 2;
    const baseBefore = firstBaseline.before;
    const baseMemory = {
      rssMiB: Math.max(firstBaseline.peak.rssMiB, secondBaseline.peak.rssMiB),
      heapMiB: Math.max(firstBaseline.peak.heapMiB, secondBaseline.peak.heapMiB),
      retainedHeapMiB: Math.max(firstBaseline.peak.retainedHeapMiB, secondBaseline.peak.retainedHeapMiB),
    };

    const workerRate = n / workerS;
    const baseRate = n / baseS;
    const ratio = workerRate / baseRate;
    console.log('\n| reminders | database | worker (plan + send) | reminders/s | bare encrypt + post | messages/s | ratio | target |');
    console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${n} | ${kind} | ${workerS.toFixed(1)} s | ${Math.round(workerRate)} | ${baseS.toFixed(1)} s | ${Math.round(baseRate)} | ${ratio.toFixed(2)} | ${REMINDERS_TARGET} |`,
    );
    console.log(`of which planning ${planS.toFixed(1)} s (${n} deliveries), sending ${(workerS - planS).toFixed(1)} s`);
    console.log(
      `memory (MiB, RSS / heap): worker before ${workerBefore.rssMiB} / ${workerBefore.heapMiB}, peak ${workerMemory.rssMiB} / ${workerMemory.heapMiB} ` +
        `(retained after GC at most ${workerMemory.retainedHeapMiB}), after ${workerAfter.rssMiB} / ${workerAfter.heapMiB}; ` +
        `baseline before ${baseBefore.rssMiB} / ${baseBefore.heapMiB}, peak ${baseMemory.rssMiB} / ${baseMemory.heapMiB} (retained at most ${baseMemory.retainedHeapMiB})`,
    );
    const result = {
      when: new Date().toISOString(),
      command: `npm run bench -- --reminders ${n}`,
      machine: { cpus: os.cpus().length, node: process.version, database: kind },
      reminders: {
        devices: n,
        placesCollected: best.places.length,
        collectionDay: formatDayNumber(best.day),
        insertS: Number(insertS.toFixed(2)),
        summary,
        workerS: Number(workerS.toFixed(2)),
        planS: Number(planS.toFixed(2)),
        workerPerS: Math.round(workerRate),
        baselineS: Number(baseS.toFixed(2)),
        baselinePerS: Math.round(baseRate),
        ratio: Number(ratio.toFixed(3)),
        target: REMINDERS_TARGET,
        concurrency: CONCURRENCY,
        memory: { workerBefore, workerPeak: workerMemory, workerAfter, baselineBefore: baseBefore, baselinePeak: baseMemory },
      },
    };
    const out = path.join(ROOT, 'bench/results', `bench-reminders-${n}-${kind}-${result.when.replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`\nwritten ${path.relative(ROOT, out)}`);
    return { ratio, result };
  } finally {
    fs.rmSync(mediaDir, { recursive: true, force: true });
    await close();
    await sink.close();
  }
}
