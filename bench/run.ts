/**
 * npm run bench: our service against the physical limit of this machine, as ratios taken in one run.
 *
 * Reads: for each route, the service (production mode, logs at warn, rate limiter on with a limit that does not
 * trigger, demo data) and a minimal Fastify process answering the same bytes from memory are measured with
 * autocannon, alternating ours/limit/ours/limit with the same connections, pipelining and duration, after a warm-up.
 * Writes: POST /public/challenges/complete against the same upsert run directly through the same driver at the
 * same concurrency. Timings vary with the machine's load; the ratios are the result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { ROOT, freePort, runNode, startNode, waitFor, rssMiB, type Child } from './processes.ts';
import { measureRawUpserts } from './raw-upsert.ts';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    pipelining: { type: 'string', default: '1' },
    only: { type: 'string' },
    'no-fail': { type: 'boolean', default: false },
  },
});
const DURATION = Number(opts.duration);
const WARMUP = Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
const PIPELINING = Number(opts.pipelining);
const READ_TARGET = 0.75;
const WRITE_TARGET = 0.6;

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
}

async function main() {
  const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'demo/bundle.json'), 'utf8'));
  const city = bundle.cities.find((c: any) => c.status === 'ACTIF');
  const site = bundle.sites.find((s: any) => s.type === 'SITE');
  const page = site.pages.find((p: any) => p.publishedAt && new Date(p.publishedAt) <= new Date());
  const media = bundle.media.find((m: any) => m.public && m.mimeType.startsWith('image/'));
  const routes = [
    '/public/cities',
    `/public/cities/${city.id}`,
    '/public/city-groups',
    `/public/challenges/${city.id}`,
    '/public/blog-posts',
    `/public/cms/pages/${page.id}`,
    `/public/cms/media/${media.id}/file`,
  ].filter((r) => !opts.only || r.includes(opts.only));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-bench-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The limiter stays on, with a limit no benchmark reaches.
    RATE_LIMIT_MAX: '1000000000',
    REDIS_URL: process.env.REDIS_URL ?? '',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  };
  const children: Child[] = [];
  const cleanup = async () => {
    await Promise.all(children.map((c) => c.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    console.log(`importing the demo data (${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})…`);
    const imported = await runNode(['src/cli.ts', 'import', 'demo/bundle.json'], env);
    if (imported.code !== 0) throw new Error(imported.output);

    const ourPort = await freePort();
    const ours = startNode(['src/cli.ts', 'serve'], { ...env, PORT: String(ourPort) });
    children.push(ours);
    const readyMs = await waitFor(`http://127.0.0.1:${ourPort}/ready`, ours);
    console.log(`service ready in ${readyMs} ms (pid ${ours.proc.pid})`);

    // Capture the very bytes the service answers, for the limit server to replay.
    const captured = [];
    for (const route of routes) {
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
    const limitPort = await freePort();
    const limit = startNode(['bench/limit-server.ts', capturedFile, String(limitPort)], {});
    children.push(limit);
    await waitFor(`http://127.0.0.1:${limitPort}/`, limit);

    const rows: Row[] = [];
    for (const route of routes) {
      for (const encoding of ['identity', 'br']) {
        const headers = { 'accept-encoding': encoding };
        const oursUrl = `http://127.0.0.1:${ourPort}${route}`;
        const limitUrl = `http://127.0.0.1:${limitPort}${route}`;
        await cannon(oursUrl, headers, WARMUP);
        await cannon(limitUrl, headers, WARMUP);
        const o: Figures[] = [];
        const l: Figures[] = [];
        for (let i = 0; i < 2; i++) {
          o.push(await cannon(oursUrl, headers, DURATION));
          l.push(await cannon(limitUrl, headers, DURATION));
        }
        const row = { route, encoding, ours: mean(o), limit: mean(l), ratio: 0, target: READ_TARGET };
        row.ratio = row.ours.rps / row.limit.rps;
        rows.push(row);
        printRow(row);
      }
    }

    // Writes: the route against the same upsert straight through the driver, at the same concurrency.
    const challengeId = city.challenges.find((c: any) => !c.requiredChallengeId)?.id;
    let write: Row | null = null;
    if (challengeId && (!opts.only || 'complete'.includes(opts.only))) {
      const body = () => JSON.stringify({ deviceId: `bench-${randomUUID()}`, challengeId, score: Math.round(Math.random() * 100) });
      const post = (duration: number) =>
        cannon(`http://127.0.0.1:${ourPort}/public/challenges/complete`, { 'content-type': 'application/json' }, duration, {
          method: 'POST',
          requests: [{ method: 'POST', setupRequest: (req: any) => ({ ...req, body: body() }) }],
        });
      await post(WARMUP);
      const o = [await post(DURATION)];
      // The embedded database is single-process: measure the raw upsert on a copy while the service is stopped.
      await ours.stop();
      const raw = await measureRawUpserts({ databaseUrl: env.DATABASE_URL || null, dataDir, challengeId, concurrency: CONNECTIONS, durationS: DURATION });
      write = { route: 'POST /public/challenges/complete', encoding: '-', ours: mean(o), limit: raw, ratio: o[0].rps / raw.rps, target: WRITE_TARGET };
      rows.push(write);
      printRow(write);
    }

    const rss = ours.proc.pid ? rssMiB(ours.proc.pid) : null;
    const result = {
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, database: env.DATABASE_URL ? 'postgres' : 'pglite' },
      settings: { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, pipelining: PIPELINING },
      readyMs,
      rssMiB: rss,
      rows,
    };
    const out = path.join(ROOT, 'bench/results', `bench-${result.when.replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`\nwritten ${path.relative(ROOT, out)}`);
    const failing = rows.filter((r) => r.ratio < r.target);
    if (failing.length && !opts['no-fail']) {
      console.log(`below target: ${failing.map((r) => `${r.route} (${r.encoding}) ${r.ratio.toFixed(2)} < ${r.target}`).join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
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
    `| ${row.route} | ${row.encoding} | ${Math.round(row.ours.rps)} | ${Math.round(row.limit.rps)} | ${row.ratio.toFixed(2)} | ${row.target} | ${f(row.ours)} | ${f(row.limit)} |`,
  );
}

await main();
