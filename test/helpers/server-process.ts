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

/** What a command printed, and how it exited. */
export interface CommandOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `collecte ARGS` as `npm run collecte` does (node and its V8 flags, no loader), with `stdin` piped in; `env`
 * replaces the given variables, and an `undefined` one is removed. Never throws for an exit code: it is in `code`.
 */
export function runCollecte(args: string[], env: Record<string, string | undefined>, stdin = ''): Promise<CommandOutcome> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'src/cli.ts', ...args], { cwd: ROOT, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
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
