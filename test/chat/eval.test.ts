import { it } from 'node:test';
import assert from 'node:assert/strict';
import { EVAL_SET_2_PATH, EVAL_SET_PATH, runEvaluation } from './eval/run-eval.ts';

/**
 * The assistant's evaluation sets (also run by `npm run eval:assistant [-- --set 2]`) must each be answered correctly
 * at least 95% of the time: the first set (test/chat/eval/questions.json), and the second, written apart
 * from the assistant in the words of residents (questions-2.json). They read the demo data through the embedded
 * database only: the assistant itself does no I/O, so a second database would test nothing more.
 */
for (const [name, setPath, least] of [
  ['first', EVAL_SET_PATH, 80],
  ['second', EVAL_SET_2_PATH, 150],
] as const) {
  it(`answers at least 95% of the ${name} evaluation set on the demo data correctly`, async () => {
    const result = await runEvaluation(setPath);
    assert.ok(result.total >= least, `the ${name} evaluation set holds ${result.total} cases, fewer than ${least}`);
    const share = result.passed / result.total;
    const failures = result.failures.map((f) => `${f.id}: ${f.problems.join('; ')}`).join('\n');
    assert.ok(share >= 0.95, `only ${(share * 100).toFixed(1)}% answered correctly:\n${failures}`);
  });
}
