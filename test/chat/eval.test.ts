import { it } from 'node:test';
import assert from 'node:assert/strict';
import { runEvaluation } from './eval/run-eval.ts';

/**
 * The assistant's evaluation set (test/chat/eval/questions.json, also run by `npm run eval:assistant`)
 * must be answered correctly at least 90% of the time. It reads the demo data through the embedded
 * database only: the assistant itself does no I/O, so a second database would test nothing more.
 */
it('answers at least 90% of the evaluation questions on the demo data correctly', async () => {
  const result = await runEvaluation();
  assert.ok(result.total >= 80, `the evaluation set holds ${result.total} cases, fewer than 80`);
  const share = result.passed / result.total;
  const failures = result.failures.map((f) => `${f.id}: ${f.problems.join('; ')}`).join('\n');
  assert.ok(share >= 0.9, `only ${(share * 100).toFixed(1)}% answered correctly:\n${failures}`);
});
