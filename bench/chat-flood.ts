import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, startNode, waitFor } from './processes.ts';

/** The flooding client's address, one per kind of flood so that each starts with whole budgets. */
const FLOOD_IPS: Record<string, string> = { neutral: '203.0.113.98', chat: '203.0.113.99', paced: '203.0.113.97' };
const long = `${'Bonjour, je voudrais savoir où jeter mes bouteilles de verre et mes cartons. '.repeat(27).slice(0, 1970)} Quand passe la poubelle ?`;

/** The flooding process: four loops of (new conversation, long message) until stopped, then the count of each answer. */
async function flood(base: string, cityId: string, kind: string): Promise<void> {
  const neutral = kind === 'neutral';
  // "As fast as its budgets allow": CHAT_IP_MAX (60 a minute) chat requests, a creation and a message every 2 s.
  const pauseMs = kind === 'paced' ? 2_000 : 0;
  const counts: Record<string, number> = {};
  let flooding = true;
  process.once('SIGTERM', () => (flooding = false));
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': FLOOD_IPS[kind] }, body: JSON.stringify(body) });
  const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);
  let devices = 0;
  const loop = async () => {
    while (flooding && neutral) {
      // The yardstick: as many requests as the service answers at once, each next to nothing (a 404).
      const res = await post('/public/chat/none', { deviceId: 'x', content: long });
      await res.arrayBuffer();
      count(`neutral ${res.status}`);
    }
    while (flooding) {
      const created = await post('/public/chat/conversations', { deviceId: `flood-${process.pid}-${++devices}`, cityId });
      count(`create ${created.status}`);
      if (created.status !== 201) {
        await created.arrayBuffer();
        continue;
      }
      const { id } = (await created.json()) as { id: string };
      const sent = await post(`/public/chat/conversations/${id}/messages`, { content: long });
      await sent.arrayBuffer();
      count(`message ${sent.status}`);
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  await Promise.all(Array.from({ length: pauseMs ? 1 : 4 }, loop));
  console.log(JSON.stringify(counts));
}

/**
 * `node bench/chat-flood.ts [--duration S] [--read PATH] [--env NAME=VALUE …]`: cached reads per second on the demo
 * data, alone and while one client IP sends 2,000-character chat messages as fast as it can (ignoring its 429s), each
 * in a new conversation of a new device (what rotating device ids look like). The service runs with its default
 * limits behind a trusted proxy: the reads come from 1,000 client addresses (X-Forwarded-For), the flood from one. The
 * flood runs in a process of its own, so that its client work is not taken from autocannon's; a neutral flood (as
 * many 404s, the same client) measures what any flood costs on this machine. Prints the rates and their ratio to the
 * reads alone; not part of `npm test`. A third, paced flood sends what the budgets allow (60 chat requests a minute from
 * the IP, each message in a new conversation of a new device): the "as fast as its budgets allow".
 */

const args = process.argv.slice(2);
if (args[0] === '--flooder') {
  await flood(args[1], args[2], args[3]);
  process.exit(0);
}
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const duration = Number(option('--duration', '5'));
const extraEnv = Object.fromEntries(args.flatMap((a, i) => (args[i - 1] === '--env' ? [a.split('=') as [string, string]] : [])));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-flood-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startNode(['src/server.ts'], {
  DATABASE_URL: '',
  REDIS_URL: '',
  DATA_DIR: dataDir,
  PORT: String(port),
  LOG_LEVEL: 'warn',
  TRUST_PROXY: 'true',
  ...extraEnv,
});
try {
  await waitFor(`${base}/ready`, server);
  const cities = (await (await fetch(`${base}/public/cities`)).json()) as { id: string; name: string }[];
  const brest = cities.find((c) => c.name === 'Brest')!;
  const read = option('--read', `/public/cities/${brest.id}`);
  // Citizens: each request from one of 1,000 addresses, so that none reaches the general limit.
  const requests = Array.from({ length: 1000 }, (_, i) => ({ headers: { 'x-forwarded-for': `10.0.${i >> 8}.${i & 255}` } }));
  const cannon = async (seconds: number) => {
    const result = await autocannon({ url: `${base}${read}`, connections: 16, duration: seconds, requests });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} reads were not answered 200`);
    return result.requests.average;
  };
  const reads = () => cannon(duration);
  await cannon(1);
  const alone = await reads();

  const during = async (kind: string) => {
    const flooder = startNode(['bench/chat-flood.ts', '--flooder', base, brest.id, kind], {});
    await new Promise((r) => setTimeout(r, 500));
    const rate = await reads();
    await flooder.stop();
    console.log(`cached reads during the ${kind.padEnd(7)} flood: ${Math.round(rate)} req/s (${((rate / alone) * 100).toFixed(0)} %) ${flooder.output().trim()}`);
  };
  console.log(`${read}: cached reads alone: ${Math.round(alone)} req/s`);
  await during('neutral');
  await during('chat');
  await during('paced');
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
