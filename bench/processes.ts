import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface Child {
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The V8 flags `npm start` runs the server with (package.json), so that what the bench measures is what operators
 * run: they bound its memory (docs/operating.md, Memory) and may cost speed.
 */
export const SERVER_NODE_FLAGS: string[] = (() => {
  const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const flags = /\bnode((?:\s+--\S+)*)\s+src\/server\.ts\b/.exec(start);
  if (!flags) throw new Error(`package.json's start script does not run node … src/server.ts: ${start}`);
  return flags[1].split(/\s+/).filter((flag) => flag !== '');
})();

/**
 * Runs a TypeScript entry point with this Node (type stripping), as production does. With `cpus` (a taskset list,
 * `1` or `1-3`), the process and every thread it starts run only on those CPUs: taskset sets the affinity and execs
 * node in place, so the pid is node's.
 */
export function startNode(args: string[], env: Record<string, string>, input?: string, cpus?: string): Child {
  const stdin = input === undefined ? 'ignore' : 'pipe';
  const [command, commandArgs] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  const proc = spawn(command, commandArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: [stdin, 'pipe', 'pipe'] });
  if (input !== undefined) proc.stdin!.end(input);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  return {
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs an entry point to its end; `input` is written to its standard input (a password). */
export async function runNode(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number | null; output: string }> {
  const child = startNode(args, env, input);
  await new Promise<void>((resolve) => child.proc.on('exit', () => resolve()));
  return { code: child.proc.exitCode, output: child.output() };
}

export async function waitFor(url: string, child: Child, timeoutMs = 120_000): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.proc.exitCode !== null) throw new Error(`process exited:\n${child.output()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return Date.now() - start;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer in time:\n${child.output()}`);
}

/** Resident set size of a process, in MiB, from /proc. */
export function rssMiB(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * `concurrency` loops calling `once` back to back for `durationS` seconds: the rate and latency percentiles of a
 * baseline sent straight through a driver.
 */
export async function timedLoops(concurrency: number, durationS: number, once: () => Promise<unknown>): Promise<{ rps: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const end = performance.now() + durationS * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      await once();
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / elapsedS, p50: at(0.5), p99: at(0.99) };
}
