import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importBundleFile } from '../../../src/bundle/import.ts';
import { answer, NO_STATE, type ChatTurn } from '../../../src/chat/assistant.ts';
import type { CityKnowledge, Place } from '../../../src/chat/knowledge.ts';
import { loadCityKnowledge } from '../../../src/chat/repository.ts';
import { openDatabase } from '../../../src/db/database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { DEMO_BUNDLE_PATH } from '../../../src/demo/load.ts';

/**
 * The assistant's evaluation on the demo data set: each case is a short conversation with a citizen of a
 * demo commune, and the facts its last answer must hold (and must not). The clock is fixed so that dates
 * are stable; the expected dates were computed with the calendar engine and checked by hand once.
 */

export interface EvalCase {
  id: string;
  /** The kind of question, to report scores per kind (the second set, questions-2.json). */
  category?: string;
  city: string;
  /** The conversation's place at the start (null: none chosen yet). */
  place?: string | null;
  /** Earlier messages of the citizen in the same conversation, answered in turn. */
  history?: string[];
  question: string;
  mustContain: string[];
  mustNotContain?: string[];
  /** Facts the answer must hold exactly once (a drop-off point is not listed twice). */
  once?: string[];
  /** The answer must hand the conversation to an agent (true) or must not (false, the default). */
  handoff?: boolean;
  /** The conversation's place after the answer (null: still none). */
  placeAfter?: string | null;
}

export interface EvalSet {
  now: string;
  /**
   * Compare with every kind of space (no-break, narrow no-break) read as a plain space and typographic
   * apostrophes as straight ones, so that « 17 h 30 » or « l'Elorn » match however the answer spaces them.
   */
  foldTypography?: boolean;
  cases: EvalCase[];
}

export interface EvalResult {
  total: number;
  passed: number;
  failures: { id: string; category?: string; question: string; problems: string[]; answer: string }[];
  /** Cases and passes per category (cases without one count under `autre`). */
  byCategory: Record<string, { total: number; passed: number }>;
}

export const EVAL_SET_PATH = path.join(import.meta.dirname, 'questions.json');
/** The second set, written apart from the assistant and never tuned on. */
export const EVAL_SET_2_PATH = path.join(import.meta.dirname, 'questions-2.json');

const plainFold = (s: string) => s.normalize('NFC').toLowerCase();
const typographyFold = (s: string) => plainFold(s).replace(/[\u00a0\u202f\u2009]/g, ' ').replace(/[\u2019\u02bc]/g, "'");

/** Loads the demo data into an embedded database and answers every case with the built-in assistant. */
export async function runEvaluation(setPath = EVAL_SET_PATH): Promise<EvalResult> {
  const set = JSON.parse(await fs.readFile(setPath, 'utf8')) as EvalSet;
  const now = new Date(set.now);
  const fold = set.foldTypography ? typographyFold : plainFold;
  const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-eval-'));
  const database = await openDatabase({ databaseUrl: null, dataDir: null });
  try {
    await migrateToLatest(database.db);
    await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now });
    const ids = await database.db.selectFrom('city').select(['id', 'name']).execute();
    const knowledge = new Map<string, CityKnowledge>();
    for (const { id, name } of ids) {
      const k = await loadCityKnowledge(database.db, id, now);
      if (k) knowledge.set(name, k);
    }
    const result: EvalResult = { total: set.cases.length, passed: 0, failures: [], byCategory: {} };
    for (const c of set.cases) {
      const problems: string[] = [];
      const k = knowledge.get(c.city);
      if (!k) throw new Error(`eval case ${c.id}: no ACTIF demo city named ${c.city}`);
      const placeByName = (name: string) => k.city.wasteCollectionPlaces.find((p) => p.name === name) ?? null;
      let place: Place | null = c.place ? placeByName(c.place) : null;
      if (c.place && !place) throw new Error(`eval case ${c.id}: no place ${c.place} in ${c.city}`);
      if (!place && k.city.wasteCollectionPlaces.length === 1) place = k.city.wasteCollectionPlaces[0];
      const history: ChatTurn[] = [];
      let reply = null;
      let state = NO_STATE;
      for (const text of [...(c.history ?? []), c.question]) {
        reply = answer({ knowledge: k, place, history: [...history], state, text, now });
        state = reply.state;
        history.push({ role: 'user', content: text }, { role: 'assistant', content: reply.content });
        place = reply.place ?? place;
      }
      const content = reply!.content;
      for (const fact of c.mustContain) if (!fold(content).includes(fold(fact))) problems.push(`missing « ${fact} »`);
      for (const fact of c.mustNotContain ?? []) if (fold(content).includes(fold(fact))) problems.push(`should not contain « ${fact} »`);
      if ((c.handoff ?? false) !== reply!.handoff) problems.push(c.handoff ? 'no hand-off to an agent' : 'unexpected hand-off');
      for (const fact of c.once ?? []) {
        const count = fold(content).split(fold(fact)).length - 1;
        if (count !== 1) problems.push(`« ${fact} » appears ${count} times, expected once`);
      }
      if (c.placeAfter !== undefined && (place?.name ?? null) !== c.placeAfter) problems.push(`place is ${place?.name ?? 'none'}, expected ${c.placeAfter ?? 'none'}`);
      const tally = (result.byCategory[c.category ?? 'autre'] ??= { total: 0, passed: 0 });
      tally.total++;
      if (problems.length === 0) {
        result.passed++;
        tally.passed++;
      } else result.failures.push({ id: c.id, category: c.category, question: c.question, problems, answer: content });
    }
    return result;
  } finally {
    await database.close();
    await fs.rm(mediaDir, { recursive: true, force: true });
  }
}
