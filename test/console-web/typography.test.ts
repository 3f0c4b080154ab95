// The console's French as agents read it, checked in its sources: every string and every piece of JSX text of
// web/console/src, read with the TypeScript parser (so that `a ? b : c` is code, not text). French typography, as the
// API's own messages (src/kernel/errors.ts): a no-break space before « : » and inside « », a narrow one before ? ! ;
// (either kind is taken), and the typographic apostrophe.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const CONSOLE = path.resolve(import.meta.dirname, '../../web/console/src');

/** What a text must not hold, each with what to write instead. */
const RULES: { pattern: RegExp; fix: string }[] = [
  { pattern: / [:;?!](?=\s|$|['’»)]|\.)/u, fix: 'a no-break space (\\u00a0 before :, \\u202f before ; ? !), not a space, before the sign' },
  { pattern: /\p{L}[:;?!](?=\s)/u, fix: 'a no-break space between the word and the sign' },
  { pattern: /« |«(?![\u00a0\u202f])| »|(?<![\u00a0\u202f])»/u, fix: 'no-break spaces inside « »' },
  { pattern: /\p{L}'\p{L}/u, fix: 'the typographic apostrophe ’' },
  { pattern: /&nbsp;/u, fix: '\\u00a0 (an entity is text outside JSX)' },
];

interface Text {
  file: string;
  line: number;
  text: string;
}

/** Every text of a source file: string literals, template pieces and JSX text (its entities read as characters). */
function textsOf(file: string): Text[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Text[] = [];
  const add = (node: ts.Node, text: string) => out.push({ file: path.relative(CONSOLE, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
  const jsx = (raw: string) => raw.replaceAll('&nbsp;', '\u00a0').replaceAll('&#8239;', '\u202f');
  const visit = (node: ts.Node) => {
    // Import paths, and the names a type is keyed by, are not text anybody reads.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node)) return;
    if (ts.isJsxText(node)) add(node, jsx(node.text));
    else if (ts.isStringLiteral(node) && ts.isJsxAttribute(node.parent)) add(node, jsx(node.text));
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node, node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) add(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('the console’s French typography', () => {
  it('puts no-break spaces before : ; ? ! and inside « », and typographic apostrophes, in every text of web/console/src', () => {
    const files = fs.globSync('**/*.{ts,tsx}', { cwd: CONSOLE }).map((f) => path.join(CONSOLE, f));
    assert.ok(files.length > 20, 'the console’s sources are read');
    const faults = files
      .flatMap(textsOf)
      .flatMap(({ file, line, text }) => RULES.filter((r) => r.pattern.test(text)).map((r) => `${file}:${line}: ${JSON.stringify(text.trim())}: ${r.fix}`));
    assert.deepEqual(faults, []);
  });

  it('tells a fault from code', () => {
    const faulty = ['Statut : ouvert', 'Statut: ouvert', 'Supprimer « Verre » ?', 'l\'article', 'Ouvert ?'];
    const fine = ['Statut\u00a0: ouvert', 'Supprimer «\u00a0Verre\u00a0»\u202f?', 'l’article', 'https://exemple.fr', 'Mo-Fr 09:00-18:00; PH off', '?', '/admin?page=1'];
    for (const text of faulty) assert.ok(RULES.some((r) => r.pattern.test(text)), text);
    for (const text of fine) assert.ok(!RULES.some((r) => r.pattern.test(text)), text);
  });
});
