/**
 * Rewrites ademe-products.json, the demo's subset of ADEME's « Que faire de mes déchets » products, from the full
 * data file: the products the streams and the quiz use (sorting.ts, drop-off.ts), the ones already vendored kept in
 * their order, new ones after them, with the fields the generator reads; texts unchanged (corrections are applied when
 * the demo is built, sorting.ts ADEME_CORRECTIONS). Run it after choosing a new product, then `npm run demo:build`:
 *
 *   npx tsx scripts/demo/vendor-ademe.ts [../shared/data/ademe-que-faire-de-mes-dechets/products.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropOffAdemeIds } from './drop-off.ts';
import { binAdemeIds, QUIZ, type AdemeProduct } from './sorting.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.join(here, 'ademe-products.json');
const source = process.argv[2] ?? path.join(here, '../../../shared/data/ademe-que-faire-de-mes-dechets/products.json');

const full = new Map((JSON.parse(readFileSync(source, 'utf8')) as AdemeProduct[]).map((p) => [p.id, p]));
const vendored = JSON.parse(readFileSync(target, 'utf8')) as { source: string; products: AdemeProduct[] };

const used = new Set([...binAdemeIds(), ...dropOffAdemeIds(), ...QUIZ.map((q) => q.ademeId)]);
const order = [...vendored.products.map((p) => p.id).filter((id) => used.has(id))];
for (const id of used) if (!order.includes(id)) order.push(id);

const products = order.map((id) => {
  const p = full.get(id);
  if (!p) throw new Error(`ADEME product ${id} is not in ${source}`);
  return { id: p.id, name: p.name, code: p.code, synonyms: p.synonyms, whatToDo: p.whatToDo };
});
writeFileSync(target, `${JSON.stringify({ source: vendored.source, products }, null, 2)}`);
console.log(`${products.length} products written to ${path.relative(process.cwd(), target)}`);
