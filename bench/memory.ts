/**
 * `npm run bench -- --memory`: the server's memory as operators get it, on a small VM's budget.
 *
 * Each row is one start of `npm start` itself (spawned as `npm start`, so that the flags of package.json's start
 * script are measured as they ship), with PORT and DATA_DIR (a temporary directory) set and DATABASE_URL, REDIS_URL,
 * MEDIA_DIR and HOST taken out of the environment; the measured process is the node descendant of npm that runs
 * src/server.ts (npm's own process, which stays resident beside it, is reported apart). Rows: the embedded database's
 * first start (demo import included) and its second start on the same DATA_DIR after a clean SIGTERM; with
 * DATABASE_URL, the same two on a database of the run's own created on that server (dropped after).
 *
 * For each: VmRSS sampled every SAMPLE_MS from spawn to /ready, the time to /ready; ten seconds later VmRSS ("at
 * rest") and VmHWM (the peak so far), the V8 heap and external memory from /metrics, RssAnon/RssFile and the largest
 * file mappings from /proc; then the peak high-water mark is reset (clear_refs 5) and READS sequential
 * GET /public/cities (every other one with `accept-encoding: br`) are sent: VmHWM again ("peak during reads"), and
 * VmRSS ten seconds after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ROOT, freePort, waitFor } from './processes.ts';

/** The issue's small VM: RSS ten seconds after /ready. */
export const REST_TARGET_POSTGRES_MIB = 150;
export const REST_TARGET_EMBEDDED_MIB = 300;
/** VmHWM on the embedded database during each start (demo import included) and during the reads. */
export const PEAK_TARGET_EMBEDDED_MIB = 512;
const SAMPLE_MS = 50;
const REST_MS = 10_000;
const READS = 200;
/** A first start imports the demo data: far longer than a restart, still bounded. */
const READY_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 30_000;

type Database = 'embedded' | 'postgres';

interface Figures {
  row: string;
  database: Database;
  readyMs: number;
  /** Largest VmRSS sampled from spawn to /ready, and VmHWM read at once when /ready answered. */
  sampledStartMiB: number;
  /**
   * Largest sum of VmRSS of the server and its child processes sampled at one instant from spawn to /ready: the
   * demo import of a first start runs in a child process, whose memory the server's VmHWM does not count.
   */
  sampledStartTreeMiB: number;
  peakAtReadyMiB: number;
  /** Largest VmRSS sampled from /ready to the rest figures. */
  sampledRestMiB: number;
  restMiB: number;
  /** VmHWM at rest: the peak of the start. */
  peakMiB: number;
  /** VmHWM after the reads; `hwmReset` false: the start's peak was not cleared before them. */
  readsPeakMiB: number;
  sampledReadsMiB: number;
  hwmReset: boolean;
  afterReadsMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  rssAnonMiB: number;
  rssFileMiB: number;
  rssShmemMiB: number;
  /** Resident file mappings, largest first (the node binary, sharp's libvips, ICU data…). */
  fileMappings: { file: string; mib: number }[];
  reads: { plainBytes: number; brBytes: number; brEncoding: string };
  npmMiB: number;
  node: string;
  argv: string[];
  /** The server's NODE_* environment variables (NODE_OPTIONS carries flags too; the start script sets some). */
  nodeVariables: string[];
  cleanStop: boolean;
}

const mib = (kb: number) => Math.round(kb / 102.4) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The kB figures of /proc/<pid>/status (VmRSS, VmHWM, RssAnon…); null once the process is gone. */
function procStatus(pid: number): Record<string, number> | null {
  try {
    const out: Record<string, number> = {};
    for (const m of fs.readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB$/gm)) out[m[1]] = Number(m[2]);
    return out;
  } catch {
    return null;
  }
}

const cmdline = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

/** Every live descendant of `root`, from the parent ids in /proc/<pid>/stat. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length; ) {
    const kids = children.get(queue.shift()!) ?? [];
    found.push(...kids);
    queue.push(...kids);
  }
  return found;
}

/** The node process that runs src/server.ts (the start script's shell `exec`s it; the shell's own argv ends alike). */
function findServer(npmPid: number): number | null {
  for (const pid of descendants(npmPid)) {
    let exe = '';
    try {
      exe = path.basename(fs.readlinkSync(`/proc/${pid}/exe`));
    } catch {
      continue;
    }
    if (exe.startsWith('node') && cmdline(pid).some((arg) => arg.endsWith('src/server.ts'))) return pid;
  }
  return null;
}

/** One `npm start`, its server process found among npm's descendants, and a stop that waits for both. */
function startNpm(env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'MEDIA_DIR', 'HOST']) if (!(name in env)) delete childEnv[name];
  const proc: ChildProcess = spawn('npm', ['start'], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  // The last lines are enough to say why a start failed; a first start's log is long.
  let out = '';
  const keep = (d: Buffer) => void (out = (out + d).slice(-20_000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const npm = {
    proc,
    serverPid: null as number | null,
    output: () => out,
    server: () => (npm.serverPid ??= proc.pid === undefined ? null : findServer(proc.pid)),
    /** SIGTERM to the server (npm passes its exit code on); anything left after STOP_TIMEOUT_MS is killed. */
    async stop(): Promise<boolean> {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode === 0;
      const pid = npm.server();
      if (pid) process.kill(pid, 'SIGTERM');
      else proc.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
      if (code !== 'timeout') return code === 0;
      for (const left of [...descendants(proc.pid!), proc.pid!]) {
        try {
          process.kill(left, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
      return false;
    },
  };
  return npm;
}

function get(port: number, url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes: body.length, body: body.toString() });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The prom-client figures in bytes by name (labels dropped), and the Node version label. */
async function scrape(port: number): Promise<{ values: Map<string, number>; node: string }> {
  const token = process.env.METRICS_TOKEN;
  const res = await get(port, '/metrics', token ? { authorization: `Bearer ${token}` } : {});
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
  const values = new Map<string, number>();
  for (const m of res.body.matchAll(/^(\w+)(?:\{[^}]*\})? (\S+)$/gm)) if (!values.has(m[1])) values.set(m[1], Number(m[2]));
  return { values, node: /collecte_nodejs_version_info\{version="([^"]+)"/.exec(res.body)?.[1] ?? '?' };
}

/** Resident kB of each file mapped by the process (/proc/<pid>/smaps), largest first. */
function fileMappings(pid: number): { file: string; mib: number }[] {
  const byFile = new Map<string, number>();
  let file: string | null = null;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) file = header[1].startsWith('/') ? path.basename(header[1]) : null;
    else if (file && line.startsWith('Rss:')) byFile.set(file, (byFile.get(file) ?? 0) + Number(/\d+/.exec(line)![0]));
  }
  return [...byFile]
    .sort((a, b) => b[1] - a[1])
    .filter(([, kb]) => kb >= 1024)
    .map(([f, kb]) => ({ file: f, mib: mib(kb) }));
}

/** One row: start, rest, reads, rest again, stop. `live` holds the running npm for the interrupt handler. */
async function measureStart(row: string, database: Database, env: Record<string, string>, live: Set<ReturnType<typeof startNpm>>): Promise<Figures> {
  const port = await freePort();
  const started = performance.now();
  const npm = startNpm({ ...env, PORT: String(port) });
  live.add(npm);
  let phaseMax = 0;
  let treeMax = 0;
  const sampler = setInterval(() => {
    const pid = npm.server();
    if (!pid) return;
    phaseMax = Math.max(phaseMax, procStatus(pid)?.VmRSS ?? 0);
    treeMax = Math.max(treeMax, [pid, ...descendants(pid)].reduce((sum, p) => sum + (procStatus(p)?.VmRSS ?? 0), 0));
  }, SAMPLE_MS);
  try {
    // waitFor reads the process and its output only; the stop is this row's own.
    await waitFor(`http://127.0.0.1:${port}/ready`, { proc: npm.proc, output: npm.output, stop: async () => {} }, READY_TIMEOUT_MS);
    const readyMs = Math.round(performance.now() - started);
    const pid = npm.server();
    if (!pid) throw new Error(`npm start: no node process running src/server.ts among npm's descendants\n${npm.output()}`);
    const peakAtReadyMiB = mib(procStatus(pid)?.VmHWM ?? 0);
    const sampledStartMiB = mib(phaseMax);
    const sampledStartTreeMiB = mib(treeMax);
    phaseMax = 0;
    await sleep(REST_MS);
    const rest = procStatus(pid)!;
    const sampledRestMiB = mib(phaseMax);
    const { values, node } = await scrape(port);
    const bytesMiB = (name: string) => Math.round(((values.get(name) ?? NaN) / 1048576) * 10) / 10;
    const mappings = fileMappings(pid);
    const nodeVariables = fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((v) => v.startsWith('NODE_'));

    // The start's peak is read; clearing the high-water mark makes the next VmHWM the reads' own.
    let hwmReset = true;
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      hwmReset = false;
    }
    phaseMax = 0;
    const reads = { plainBytes: 0, brBytes: 0, brEncoding: '' };
    for (let i = 0; i < READS; i++) {
      const br = i % 2 === 1;
      const res = await get(port, '/public/cities', br ? { 'accept-encoding': 'br' } : {});
      if (res.status !== 200) throw new Error(`GET /public/cities: ${res.status} ${res.body.slice(0, 200)}`);
      if (br) reads.brEncoding = res.encoding;
      reads[br ? 'brBytes' : 'plainBytes'] = res.bytes;
    }
    const readsPeakMiB = mib(procStatus(pid)!.VmHWM);
    const sampledReadsMiB = mib(phaseMax);
    await sleep(REST_MS);
    const afterReadsMiB = mib(procStatus(pid)!.VmRSS);
    const npmMiB = mib(procStatus(npm.proc.pid!)?.VmRSS ?? 0);
    const argv = cmdline(pid);
    const cleanStop = await npm.stop();
    live.delete(npm);
    return {
      row,
      database,
      readyMs,
      sampledStartMiB,
      sampledStartTreeMiB,
      peakAtReadyMiB,
      sampledRestMiB,
      restMiB: mib(rest.VmRSS),
      peakMiB: mib(rest.VmHWM),
      readsPeakMiB,
      sampledReadsMiB,
      hwmReset,
      afterReadsMiB,
      heapUsedMiB: bytesMiB('collecte_nodejs_heap_size_used_bytes'),
      heapTotalMiB: bytesMiB('collecte_nodejs_heap_size_total_bytes'),
      externalMiB: bytesMiB('collecte_nodejs_external_memory_bytes'),
      rssAnonMiB: mib(rest.RssAnon),
      rssFileMiB: mib(rest.RssFile),
      rssShmemMiB: mib(rest.RssShmem),
      fileMappings: mappings,
      reads,
      npmMiB,
      node,
      argv,
      nodeVariables,
      cleanStop,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** A database of the run's own on DATABASE_URL's server, and its removal. */
async function scratchDatabase(databaseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_memory_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The targets a row misses, in words. */
function missedTargets(f: Figures): string[] {
  const missed: string[] = [];
  const restTarget = f.database === 'postgres' ? REST_TARGET_POSTGRES_MIB : REST_TARGET_EMBEDDED_MIB;
  if (f.restMiB > restTarget) missed.push(`${f.row}: RSS at rest ${f.restMiB} MiB > ${restTarget} MiB`);
  if (f.database === 'embedded') {
    if (f.peakMiB > PEAK_TARGET_EMBEDDED_MIB) missed.push(`${f.row}: peak ${f.peakMiB} MiB > ${PEAK_TARGET_EMBEDDED_MIB} MiB`);
    if (f.sampledStartTreeMiB > PEAK_TARGET_EMBEDDED_MIB) {
      missed.push(`${f.row}: the server and its child processes held ${f.sampledStartTreeMiB} MiB at once > ${PEAK_TARGET_EMBEDDED_MIB} MiB`);
    }
    if (f.readsPeakMiB > PEAK_TARGET_EMBEDDED_MIB) missed.push(`${f.row}: peak during reads ${f.readsPeakMiB} MiB > ${PEAK_TARGET_EMBEDDED_MIB} MiB`);
  }
  if (!f.cleanStop) missed.push(`${f.row}: the server did not stop cleanly on SIGTERM`);
  return missed;
}

function print(rows: Figures[]) {
  console.log('\n| row | ready ms | RSS at rest | peak | with child processes | peak during reads | RSS after reads | heap used/total | external | RssAnon | RssFile |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const f of rows) {
    console.log(
      `| ${f.row} | ${f.readyMs} | ${f.restMiB} | ${f.peakMiB} | ${f.sampledStartTreeMiB} | ${f.readsPeakMiB}${f.hwmReset ? '' : ' (incl. start)'} | ${f.afterReadsMiB} | ` +
        `${f.heapUsedMiB} / ${f.heapTotalMiB} | ${f.externalMiB} | ${f.rssAnonMiB} | ${f.rssFileMiB} |`,
    );
  }
  console.log('(MiB; peak: VmHWM ten seconds after /ready; with child processes: the largest sum of the server\'s and its children\'s RSS sampled before /ready; peak during reads: VmHWM after the reads, cleared before them)');
  for (const f of rows) {
    const other = Math.round((f.rssAnonMiB - f.heapTotalMiB - f.externalMiB) * 10) / 10;
    console.log(
      `\n${f.row}: VmHWM ${f.peakAtReadyMiB} MiB when /ready answered; sampled every ${SAMPLE_MS} ms, at most ${f.sampledStartMiB} MiB before /ready, ` +
        `${f.sampledRestMiB} MiB in the ten seconds after it and ${f.sampledReadsMiB} MiB during the reads; ` +
        `anonymous memory besides the V8 heap and external: ${other} MiB (native allocations: ${f.database === 'embedded' ? "PGlite's WASM memory, " : ''}libvips, V8's code space…); ` +
        `shared ${f.rssShmemMiB} MiB; npm's own process beside it: ${f.npmMiB} MiB`,
    );
    console.log(`  file mappings: ${f.fileMappings.map((m) => `${m.file} ${m.mib}`).join(', ') || 'none over 1 MiB'}`);
    console.log(`  GET /public/cities: ${f.reads.plainBytes} bytes plain, ${f.reads.brBytes} bytes asked with br (content-encoding ${f.reads.brEncoding})`);
  }
}

/** Runs every row; answers the targets missed (printed by the caller). */
export async function runMemoryBench(): Promise<{ missed: string[] }> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const live = new Set<ReturnType<typeof startNpm>>();
  const dirs: string[] = [];
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;
  let cleaned: Promise<void> | null = null;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await Promise.all([...live].map((npm) => npm.stop()));
      if (scratch) await scratch.drop().catch((err) => console.error(`could not drop the bench database: ${err}`));
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping the servers started by the bench`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  const rows: Figures[] = [];
  const scriptStart = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  console.log(`npm start: ${scriptStart}`);
  try {
    const tempDir = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-bench-memory-'));
      dirs.push(dir);
      return dir;
    };
    const run = async (row: string, database: Database, env: Record<string, string>) => {
      console.log(`${row}…`);
      const figures = await measureStart(row, database, env, live);
      console.log(`  /ready after ${figures.readyMs} ms; ${figures.restMiB} MiB at rest, peak ${figures.peakMiB} MiB, ${figures.readsPeakMiB} MiB during the reads`);
      rows.push(figures);
    };
    const embedded = { DATA_DIR: tempDir() };
    await run('embedded, first start', 'embedded', embedded);
    await run('embedded, second start', 'embedded', embedded);
    if (databaseUrl) {
      scratch = await scratchDatabase(databaseUrl);
      const postgres = { DATA_DIR: tempDir(), DATABASE_URL: scratch.url };
      await run('PostgreSQL, first start', 'postgres', postgres);
      await run('PostgreSQL, second start', 'postgres', postgres);
    } else {
      console.log('PostgreSQL rows: skipped (set DATABASE_URL)');
    }
  } finally {
    await cleanup();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }

  print(rows);
  const server = rows[0];
  if (server) console.log(`\nserver: Node ${server.node}, argv: ${server.argv.join(' ')}; environment: ${server.nodeVariables.join(' ') || 'no NODE_* variable'}`);
  const missed = rows.flatMap(missedTargets);
  const result = {
    when: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: { cpus: os.cpus().length, memoryMiB: Math.round(os.totalmem() / 1048576), benchNode: process.version, database: databaseUrl ? 'postgres' : 'pglite' },
    startScript: scriptStart,
    targets: { restPostgresMiB: REST_TARGET_POSTGRES_MIB, restEmbeddedMiB: REST_TARGET_EMBEDDED_MIB, peakEmbeddedMiB: PEAK_TARGET_EMBEDDED_MIB },
    settings: { sampleMs: SAMPLE_MS, restMs: REST_MS, reads: READS },
    rows,
    missed,
  };
  const out = path.join(ROOT, 'bench/results', `bench-memory-${result.when.replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`written ${path.relative(ROOT, out)}`);
  return { missed };
}
