import { EVAL_SET_2_PATH, EVAL_SET_PATH, runEvaluation } from './run-eval.ts';

/**
 * `npm run eval:assistant`: prints the share of evaluation cases answered correctly, and each failure.
 * `npm run eval:assistant -- --set 2` runs the second set (questions-2.json) and adds its score per category;
 * `--set path/to/set.json` runs any set of the same format.
 */
const flag = process.argv.indexOf('--set');
const choice = flag >= 0 ? process.argv[flag + 1] : undefined;
const setPath = choice === undefined || choice === '1' ? EVAL_SET_PATH : choice === '2' ? EVAL_SET_2_PATH : choice;
const result = await runEvaluation(setPath);
for (const f of result.failures) {
  const tag = f.category ? ` [${f.category}]` : '';
  console.log(`✗ ${f.id}${tag}: ${f.question}\n  ${f.problems.join('\n  ')}\n  answer: ${f.answer.replace(/\n/g, '\n          ')}\n`);
}
const percent = (passed: number, total: number) => (total === 0 ? 0 : (passed / total) * 100).toFixed(1);
const categories = Object.entries(result.byCategory);
if (categories.length > 1) {
  for (const [name, { total, passed }] of categories.sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${name.padEnd(26)} ${String(passed).padStart(3)}/${String(total).padEnd(3)} ${percent(passed, total).padStart(5)} %`);
  }
}
const share = result.total === 0 ? 0 : result.passed / result.total;
console.log(`${result.passed}/${result.total} answered correctly (${percent(result.passed, result.total)} %)`);
process.exitCode = share >= 0.9 ? 0 : 1;
