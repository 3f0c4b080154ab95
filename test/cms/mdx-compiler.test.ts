import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createMdxCompiler, mdxFault } from '../../src/domain/rules/mdx.ts';
import { mdxTooDeep } from '../../src/domain/rules/mdx-nesting.ts';
import { bundleMessages } from '../../src/kernel/validation-messages.ts';

/**
 * The MDX check of posts and pages (src/domain/rules/mdx.ts), with its real worker threads: content nested too
 * deeply is refused before compiling, a compilation past its time limit is stopped, and a command that compiled
 * still exits by itself. No database involved.
 */

const BROKEN = '# Titre\n\nb {x\n';
const BROKEN_FAULT = {
  reason: 'Unexpected end of file in expression, expected a corresponding closing brace for `{`',
  line: 3,
  column: 5,
  message: 'n’est pas du MDX valide (ligne 3, colonne 5)\u00a0: Unexpected end of file in expression, expected a corresponding closing brace for `{`',
};

describe('MDX check', () => {
  it('refuses content nested too deeply before compiling it, saying where the level too many is', async () => {
    const cases = [
      { content: 'Voir ' + '['.repeat(200), kind: 'brackets', line: 1, column: 106 },
      { content: '# Titre\n\n' + '{'.repeat(200) + '}'.repeat(200), kind: 'braces', line: 3, column: 101 },
      { content: '<Carte>\n' + '<a>'.repeat(150), kind: 'tags', line: 2, column: 298 },
      { content: 'Intro\n\n' + '> '.repeat(101) + 'citation', kind: 'containers', line: 3, column: 201 },
      { content: '- un\n' + '* '.repeat(60) + '1. '.repeat(60) + 'deux', kind: 'containers', line: 2, column: 241 },
    ] as const;
    for (const { content, kind, line, column } of cases) {
      const message = bundleMessages.mdxTooNested(100, kind, line, column);
      assert.deepEqual(await mdxFault(content), { reason: `more than 100 levels of ${kind}`, line, column, message }, kind);
    }
    assert.equal(
      bundleMessages.mdxTooNested(100, 'containers', 3, 201),
      'est trop imbriqué (ligne 3, colonne 201)\u00a0: plus de 100 niveaux de citations ou de listes, simplifiez-le',
    );
  });

  it('counts what opens, not code, escapes, closed levels or other paragraphs', async () => {
    const fine = [
      // A code sample's generics and braces, fenced or inline, open nothing.
      '```ts\n' + 'const m: Map<string, Array<number>> = new Map({ a: [{ b: 1 }] );\n'.repeat(150) + '```\n\nFin.',
      'Les types ' + '`Array<T>` et `{`, '.repeat(150) + 'fin.',
      // Escaped brackets, and a hundred levels closed before the next hundred open.
      '\\['.repeat(300) + ' et ' + ('['.repeat(100) + 'x' + ']'.repeat(100) + ' ').repeat(3),
      // Brackets do not cross a paragraph.
      ('['.repeat(60) + 'x\n\n').repeat(3),
      // Tags that close themselves.
      '<Carte />\n\n'.repeat(300),
    ];
    for (const content of fine) assert.equal(mdxTooDeep(content), null, content.slice(0, 40));
    assert.equal(await mdxFault(fine[0]), null);
    assert.equal(await mdxFault(fine[1]), null);
    assert.deepEqual(await mdxFault(BROKEN), BROKEN_FAULT, 'ordinary faults are the compiler’s, as before');
  });

  it('stops a compilation past its time limit and answers the next one from a new worker', async (t) => {
    const compiler = createMdxCompiler({ timeLimitMs: 1000, workers: 1 });
    t.after(() => compiler.close());
    // Nothing nests here, yet the compiler's time grows with the square of the emphasis marks: minutes for 90 KB.
    const slow = '*_'.repeat(45_000);
    assert.equal(mdxTooDeep(slow), null);
    const fault = await mdxFault(slow, compiler);
    assert.deepEqual({ ...fault, reason: undefined }, { reason: undefined, line: null, column: null, message: bundleMessages.mdxTooSlowToCompile });
    assert.equal(bundleMessages.mdxTooSlowToCompile, 'est trop long à compiler\u00a0: découpez-le ou simplifiez-le');
    assert.deepEqual(await mdxFault(BROKEN, compiler), BROKEN_FAULT);
    assert.equal(await mdxFault('# Titre', compiler), null);
  });

  it('lets a command that compiled exit by itself, once its compilation is answered', async () => {
    // Plain Node, as `npm run collecte` runs: the workers run the TypeScript sources as the command does.
    const command = new URL('./fixtures/mdx-command.ts', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(process.execPath, [command, BROKEN], { timeout: 60_000 });
    assert.deepEqual(JSON.parse(stdout), BROKEN_FAULT);
  });
});
