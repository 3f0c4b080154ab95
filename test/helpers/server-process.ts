import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../bench/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs an entry point of the service as a real process, with `node` and the V8 flags of `npm start`. */
function startProcess(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

/**
 * Starts `collecte serve` (no demo data) as a real process on the embedded database in `dataDir`, with `node` and the
 * V8 flags of `npm start` as production runs it (none of the test runner's loader flags).
 */
export function startServer(dataDir: string, port: number, env: Record<string, string> = {}): Child {
  return startProcess(['src/cli.ts', 'serve'], { DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ...env });
}

/**
 * `npm start` as operators run it (src/server.ts: the demo data on a first start, the demo console's key), without
 * Redis nor CONSOLE_JWT_SECRET unless `env` gives them; `env` says which database (DATA_DIR, DATABASE_URL).
 */
export function startNpmStart(port: number, env: Record<string, string>): Child {
  return startProcess(['src/server.ts'], { REDIS_URL: '', CONSOLE_JWT_SECRET: '', PORT: String(port), LOG_LEVEL: 'info', ...env });
}

/** Waits until the process answers 200 on /ready; fails with its output if it exits or takes over a minute. */
export async function waitReady(port: number, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`server exited: ${child.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready: ${child.output()}`);
}
