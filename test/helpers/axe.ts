// The two accessibility engines the browser tests run on the screens they visit (in the page, or in a frame: a
// widget on a commune's page): axe-core (no serious or critical violation) and HTML_CodeSniffer, the engine pa11y
// runs (no error of the WCAG 2 AA standard). Two engines because each finds what the other misses; both are read
// from node_modules and evaluated in the page, so that nothing is fetched and the page's CSP is not in the way.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const HTMLCS = fs.readFileSync(require.resolve('html_codesniffer/build/HTMLCS.js'), 'utf8');

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: unknown }[] }[];
}

/**
 * Evaluates an engine's source in the document unless this document has it already (`global` is the name it
 * defines): a screen checked again after the app changed it keeps the engine it was given, and a new document (a
 * navigation, a reload) gets it anew. Each engine is hundreds of kilobytes that the page would otherwise receive and
 * compile at every check.
 */
async function ensureEngine(page: Page | Frame, global: string, source: string): Promise<void> {
  if ((await page.evaluate(`typeof globalThis[${JSON.stringify(global)}]`)) === 'undefined') await page.evaluate(source);
}

/** axe-core on what `page` (or a frame) shows: no serious or critical violation, else a failure naming each rule and node. */
export async function checkAxe(page: Page | Frame, screen: string): Promise<void> {
  await ensureEngine(page, 'axe', AXE);
  const violations = await page.evaluate(async () => {
    // Only the violations' details: axe-core then skips describing every node that passes (a third of its run on the
    // app's home screen).
    const inPage = globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<AxeResult> }; document: unknown };
    const result = await inPage.axe.run(inPage.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
  assert.deepEqual(violations, [], `${screen}: accessibility violations`);
}

/**
 * HTML_CodeSniffer's errors left out, each for one code on the elements a selector names, with why (as pa11y's
 * `ignore`, only narrower): a rule the engine judges wrongly on these elements, never a problem left for later.
 */
export const HTMLCS_EXCLUSIONS: readonly { code: string; selector: string; reason: string }[] = [
  {
    code: 'WCAG2AA.Principle1.Guideline1_3.1_3_5.H98',
    selector: 'input[type="email"][autocomplete="username"]',
    reason:
      'HTML_CodeSniffer 2.5 puts `username` in the Text control group alone; the HTML standard gives it the Username group, which an e-mail field belongs to (axe-core follows it since 4.3): the console\'s login field is an e-mail address that password managers must fill',
  },
  {
    code: 'WCAG2AA.Principle3.Guideline3_2.3_2_2.H32.2',
    selector: 'form[role="search"]:not(:has(input:not([type="search"], [type="text"]), select, textarea, input + input))',
    reason:
      'a search landmark of one text field whose results come as one types (the communes filtered, the options of an address combobox), each result a link or an option reached with the keyboard: there is nothing to submit, and a button would add nothing a keyboard lacks',
  },
];

/**
 * HTML_CodeSniffer (`html_codesniffer`, the engine of pa11y) on what `page` (or a frame) shows, standard WCAG2AA: no
 * error (its type 1; warnings and notices ask for a person's judgement), else a failure listing each error's code,
 * message and element.
 */
export async function checkHtmlcs(page: Page | Frame, screen: string): Promise<void> {
  await ensureEngine(page, 'HTMLCS', HTMLCS);
  const exclusions = HTMLCS_EXCLUSIONS.map(({ code, selector }) => ({ code, selector }));
  const errors = (await page.evaluate(`(${RUN_HTMLCS})(${JSON.stringify(exclusions)})`)) as string[];
  assert.deepEqual(errors, [], `${screen}: HTML_CodeSniffer errors (WCAG2AA)`);
}

/**
 * The run in the page, as source text: a function given to `evaluate` would be compiled by tsx, whose helpers
 * (`__name`) the page does not have. Each error as `code: message (<tag#id.class> « text »)`.
 */
const RUN_HTMLCS = `(exclusions) => new Promise((resolve, reject) => {
  // 2.5.1 asks for its autocomplete messages as InvalidAutoComplete_*, written InvalidAutocomplete_* in its
  // translations: without the alias the run stops on the first such message.
  for (const table of Object.values(translation)) {
    for (const key of Object.keys(table)) if (key.includes('InvalidAutocomplete_')) table[key.replace('InvalidAutocomplete_', 'InvalidAutoComplete_')] = table[key];
  }
  const excluded = (m) => exclusions.some((e) => m.code === e.code && m.element && m.element.matches && m.element.matches(e.selector));
  const describe = (element) => {
    if (!element || !element.tagName) return 'document';
    const id = element.id ? '#' + element.id : '';
    const classes = element.classList.length ? '.' + [...element.classList].join('.') : '';
    const text = (element.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return '<' + element.tagName.toLowerCase() + id + classes + '>' + (text ? ' « ' + text + ' »' : '');
  };
  HTMLCS.process('WCAG2AA', document, () => resolve(HTMLCS.getMessages()
    .filter((m) => m.type === 1 && !excluded(m))
    .map((m) => m.code + ': ' + m.msg + ' (' + describe(m.element) + ')')),
    () => reject(new Error('HTML_CodeSniffer failed to run')));
})`;

/** axe-core on what `page` (or a frame) shows (every browser test's check). */
export const checkA11y = checkAxe;

/** Both engines on what `page` (or a frame) shows. */
export async function checkBothEngines(page: Page | Frame, screen: string): Promise<void> {
  await checkAxe(page, screen);
  await checkHtmlcs(page, screen);
}
