import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every word a user reads comes from the locale files (three locales, spec section 1). This scan fails
 * on words written straight into JSX text or into the attributes a screen reader or tooltip shows.
 */
const SRC = dirname(fileURLToPath(import.meta.url));
const TRANSLATED_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label']);
const LETTER = /\p{L}/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });
}

/** Returns `file:line  text` for each hard-coded user-facing string in one TSX source. */
function findHardCodedText(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${fileName}:${line + 1}  ${JSON.stringify(text.trim())}`);
  };
  /** A literal that ends up as the attribute's value, including both arms of `a ? 'x' : 'y'`. */
  const literalsIn = (expression: ts.Expression): ts.Node[] => {
    if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression];
    if (ts.isTemplateExpression(expression))
      return [expression.head, ...expression.templateSpans.map((s) => s.literal)];
    if (ts.isParenthesizedExpression(expression)) return literalsIn(expression.expression);
    if (ts.isConditionalExpression(expression))
      return [...literalsIn(expression.whenTrue), ...literalsIn(expression.whenFalse)];
    if (ts.isBinaryExpression(expression))
      return [...literalsIn(expression.left), ...literalsIn(expression.right)];
    return [];
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && LETTER.test(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(file);
      if (TRANSLATED_ATTRIBUTES.has(name)) {
        const init = node.initializer;
        const literals = ts.isStringLiteral(init)
          ? [init]
          : ts.isJsxExpression(init) && init.expression
            ? literalsIn(init.expression)
            : [];
        for (const literal of literals) {
          const text = (literal as ts.LiteralLikeNode).text;
          if (LETTER.test(text)) report(literal, `${name}=${text}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('hard-coded user-facing text', () => {
  it('the scanner flags JSX text and translated attributes in any script (self-check)', () => {
    const snippet = [
      'export const A = () => <p>Hello</p>;',
      'export const B = () => <img alt="로고" src="x.png" />;',
      'export const C = () => <input placeholder={"邮箱"} />;',
      "export const D = (x: boolean) => <button aria-label={x ? 'Open' : 'Close'} title={`Tip`} />;",
      "export const E = () => <p>{t('ok')} 123 · </p>;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet is source code the scanner reads
      'export const F = () => <p className="card" data-x="word">{`${1}`}</p>;',
    ].join('\n');
    expect(findHardCodedText('snippet.tsx', snippet)).toEqual([
      'snippet.tsx:1  "Hello"',
      'snippet.tsx:2  "alt=로고"',
      'snippet.tsx:3  "placeholder=邮箱"',
      'snippet.tsx:4  "aria-label=Open"',
      'snippet.tsx:4  "aria-label=Close"',
      'snippet.tsx:4  "title=Tip"',
    ]);
  });

  it('finds no hard-coded words in any .tsx under apps/web/src', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(10);
    const findings = files.flatMap((path) =>
      findHardCodedText(relative(SRC, path).replaceAll('\\', '/'), readFileSync(path, 'utf8')),
    );
    expect(findings, `hard-coded text (move it to src/locales/*.json):\n${findings.join('\n')}`).toEqual([]);
  });
});
