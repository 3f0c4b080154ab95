import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importBundleFile } from '../src/bundle/import.ts';
import { answer, NO_STATE, type ChatTurn } from '../src/chat/assistant.ts';
import type { CityKnowledge } from '../src/chat/knowledge.ts';
import { loadCityKnowledge } from '../src/chat/repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_BUNDLE_PATH } from '../src/demo/load.ts';

/**
 * `npx tsx bench/assistant-cpu.ts`: the built-in assistant's time per 2,000-character message on the demo data,
 * for a few kinds of long text (the median of five runs, in the slowest city), with and without a long history. Timings
 * never belong in tests; this prints them for a person to read.
 */

const now = new Date('2026-11-23T08:00:00.000Z');
const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-cpu-'));
const database = await openDatabase({ databaseUrl: null, dataDir: null });
await migrateToLatest(database.db);
await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now });
const cities = await database.db.selectFrom('city').select(['id', 'name']).execute();
const knowledge: CityKnowledge[] = [];
for (const { id } of cities) {
  const k = await loadCityKnowledge(database.db, id, now);
  if (k) knowledge.push(k);
}
await database.close();

const fill = (unit: (i: number) => string) => {
  let text = '';
  for (let i = 0; text.length < 2000; i++) text += `${unit(i)} `;
  return text.slice(0, 2000);
};
const letters = 'abcdefghijklmnopqrstuvwxyz';
const pseudoWord = (i: number, n: number) => Array.from({ length: n }, (_, j) => letters[(i * 7 + j * 13) % 26]).join('');
const texts: Record<string, string> = {
  'sorting question repeated': fill(() => 'où jeter les bouteilles en plastique et les pots de yaourt ?'),
  'long unknown words': fill((i) => pseudoWord(i, 12)),
  'typos of guide words': fill((i) => ['bouteile', 'emballages', 'cartonns', 'plastiqe', 'journeaux', 'medicaments', 'ampoulles', 'dechetterie'][i % 8]),
  'mixed French': fill((i) => ['quand', 'passe', 'la', 'poubelle', 'jaune', 'rue', 'de', 'Siam', 'Lambézellec', 'verre', 'noël', '25/12'][i % 12]),
  'one long word': 'a'.repeat(2000),
};

const time = (k: CityKnowledge, text: string, history: ChatTurn[]) => {
  // Each message gets its own copy of the city's data, as a worker receives it: nothing built for one answer is reused.
  const knowledge = structuredClone(k);
  const start = process.hrtime.bigint();
  answer({ knowledge, place: null, history, state: NO_STATE, text, now });
  return Number(process.hrtime.bigint() - start) / 1e6;
};

/** The median of `runs` timings: a single run catches garbage collections and the machine's other work. */
const median = (k: CityKnowledge, text: string, history: ChatTurn[], runs = 5) => {
  const timings = Array.from({ length: runs }, () => time(k, text, history)).sort((x, y) => x - y);
  return timings[Math.floor(runs / 2)];
};

const histories = (text: string): [string, ChatTurn[]][] => [
  ['no history', []],
  ['history 20', Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: i % 2 ? 'C’est noté : Bourg.' : text }) as ChatTurn)],
];
// Warm-up: the first calls compile the code.
for (const text of Object.values(texts)) for (const k of knowledge) time(k, text, []);

let worst = 0;
for (const [name, text] of Object.entries(texts)) {
  for (const [label, history] of histories(text)) {
    const slowest = Math.max(...knowledge.map((k) => median(k, text, history)));
    worst = Math.max(worst, slowest);
    console.log(`${name.padEnd(28)} ${label}  slowest city ${slowest.toFixed(1)} ms (median of 5)`);
  }
}
console.log(`worst case over ${knowledge.length} cities: ${worst.toFixed(1)} ms per message`);
