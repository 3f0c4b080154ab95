import { contentTokens } from './text-match.ts';
import type { CityKnowledge, ContentPassage } from './knowledge/model.ts';

/**
 * The city's own pages and published posts, for the questions its data does not answer (« le bio-seau sent mauvais,
 * une astuce ? »). They are quoted, with their title and a link, never turned into facts: a passage is a paragraph, a
 * list item or a callout of the text, as the city wrote it.
 */

export interface ContentDocument {
  title: string;
  /** Where the citizens' web app shows it (`/actualites/:id`, `/pages/:id`, `/communes/:cityId` for the group's questions). */
  path: string;
  /** MDX as stored. */
  content: string;
}

export type { ContentPassage } from './knowledge/model.ts';

/** Markdown of one passage as plain text: emphasis dropped, links and images kept as « text (address) ». */
function plain(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)')
    .replace(/[*_`]+/g, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    // Line breaks and runs of spaces become one space; the non-breaking spaces of French typography stay.
    .replace(/[ \t\n\r\f\v]+/g, ' ')
    .trim();
}

/** What a callout is, in the words a question uses (« une astuce ? »). */
const CALLOUT_WORDS: Record<string, string> = {
  tip: 'astuce conseil',
  info: 'information',
  warning: 'attention interdit',
  danger: 'attention danger interdit',
};

/** The passages of one document: paragraphs, list items and callouts, each under its latest heading. */
export function passagesOf(doc: ContentDocument): ContentPassage[] {
  const passages: ContentPassage[] = [];
  let heading = '';
  const titleTokens = contentTokens(doc.title);
  const add = (markdown: string, kindWords = '') => {
    const text = plain(markdown);
    if (text.length < 12) return;
    const tokens = [...contentTokens(text), ...contentTokens(heading), ...titleTokens, ...contentTokens(kindWords)];
    passages.push({ title: doc.title, path: doc.path, text, tokens: [...new Set(tokens)] });
  };
  const blocks = doc.content.replace(/\r\n/g, '\n').split(/\n\s*\n/);
  for (const block of blocks) {
    const trimmed = block.trim();
    const headingMatch = /^#{1,6}\s+(.*)$/.exec(trimmed);
    if (headingMatch && !trimmed.includes('\n')) {
      heading = headingMatch[1];
      continue;
    }
    const callout = /^:::(\w+)\s*\n([\s\S]*?)\n?:::$/.exec(trimmed);
    if (callout) {
      add(callout[2], CALLOUT_WORDS[callout[1]] ?? '');
      continue;
    }
    const lines = trimmed.split('\n');
    if (lines.every((l) => /^\s*(?:[-*+]|\d+\.)\s+/.test(l) || /^\s{2,}\S/.test(l))) {
      for (const item of trimmed.split(/\n(?=\s*(?:[-*+]|\d+\.)\s+)/)) add(item);
    } else {
      add(trimmed.replace(/^#{1,6}\s+.*\n/, ''));
    }
  }
  return passages;
}

/** The same word, or two forms of one verb or noun (« télécharger », « téléchargez »): a common stem of six letters. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 6 || Math.abs(a.length - b.length) > 2) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common >= 6 && common >= shorter - 2;
}

/** Words too common in the city's pages to say what a question is about. */
const WEAK = new Set(['dechet', 'bac', 'poubelle', 'collecte', 'tri', 'trier', 'faire', 'peut', 'va', 'vont', 'comment', 'quoi', 'est']);

/**
 * The passages that answer a question, best first, at most `limit`: each shares at least two of its distinctive words
 * and most of them, weighted by how rare each word is in the pages.
 */
/** The words of a question a passage is matched on. */
const askedWords = (text: string) => [...new Set(contentTokens(text))].filter((t) => t.length >= 3 && !WEAK.has(t));

/** How many of a question's words a passage holds. */
export function passageHits(passage: ContentPassage, text: string): number {
  return askedWords(text).filter((t) => passage.tokens.some((w) => sameWord(t, w))).length;
}

export function rankedPassages(knowledge: CityKnowledge, text: string, limit: number): ContentPassage[] {
  const passages = knowledge.content;
  const asked = askedWords(text);
  if (passages.length === 0 || asked.length === 0) return [];
  const rarity = (t: string) => passages.filter((p) => p.tokens.some((w) => sameWord(t, w))).length || 1;
  const weight = new Map(asked.map((t) => [t, Math.log(1 + passages.length / rarity(t))]));
  return passages
    .map((passage) => {
      const hits = asked.filter((t) => passage.tokens.some((w) => sameWord(t, w)));
      return { passage, hits: hits.length, score: hits.reduce((sum, t) => sum + weight.get(t)!, 0) };
    })
    // One word is a topic, not a question about it; most of the question's words must be there.
    .filter((s) => s.hits >= 2 && s.hits >= asked.length / 2)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.passage);
}

/** The passage that best answers a question, or null (rankedPassages). */
export function bestPassage(knowledge: CityKnowledge, text: string): ContentPassage | null {
  return rankedPassages(knowledge, text, 1)[0] ?? null;
}

/** Whether a passage holds every one of `words` (stems), in some form. */
export function passageHolds(passage: ContentPassage, words: string[]): boolean {
  return words.every((t) => passage.tokens.some((w) => sameWord(t, w)));
}
