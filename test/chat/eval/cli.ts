import { runEvaluation } from './run-eval.ts';

/** `npm run eval:assistant`: prints the share of evaluation cases answered correctly, and each failure. */
const result = await runEvaluation();
for (const f of result.failures) {
  console.log(`✗ ${f.id}: ${f.question}\n  ${f.problems.join('\n  ')}\n  answer: ${f.answer.replace(/\n/g, '\n          ')}\n`);
}
const share = result.total === 0 ? 0 : result.passed / result.total;
console.log(`${result.passed}/${result.total} answered correctly (${(share * 100).toFixed(1)} %)`);
process.exitCode = share >= 0.9 ? 0 : 1;
