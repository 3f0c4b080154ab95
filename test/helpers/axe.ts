// axe-core, the accessibility engine the browser tests run on every screen they visit (in the page, or in a frame:
// a widget on a commune's page): no serious or critical violation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: unknown }[] }[];
}

/** axe-core on what `page` (or a frame) shows: no serious or critical violation, else a failure naming each rule and node. */
export async function checkA11y(page: Page | Frame, screen: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run: () => Promise<AxeResult> } }).axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
  assert.deepEqual(violations, [], `${screen}: accessibility violations`);
}
