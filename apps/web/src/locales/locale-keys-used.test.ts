import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from '@elex/contract';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import en from './en.json';

/**
 * locales.test.ts compares zh and ko with en; this one checks en against the code: every literal key
 * the source asks for (`t('a.b')`, `i18next.t('msg:x')`, `<Trans i18nKey="a.b">`) must exist, in en.json
 * or, for `msg:`, in the contract's messages. A typo in all three files' callers would otherwise show
 * the raw key to the user and fail nothing.
 */
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    const isSource =
      /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts');
    return isSource ? [path] : [];
  });
}

interface KeyUse {
  key: string;
  /** `returnObjects: true` was passed: the key may name a list or an object. */
  objects: boolean;
  where: string;
}

/** Every literal translation key in one source file. */
function keysUsedIn(fileName: string, source: string): KeyUse[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const uses: KeyUse[] = [];
  const where = (node: ts.Node) =>
    `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const literal = (node: ts.Node | undefined) =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isT =
        (ts.isIdentifier(callee) && callee.text === 't') ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
      const key = isT ? literal(node.arguments[0]) : undefined;
      if (key !== undefined) {
        const options = node.arguments[1];
        const objects =
          options !== undefined &&
          ts.isObjectLiteralExpression(options) &&
          options.properties.some(
            (property) =>
              ts.isPropertyAssignment(property) &&
              property.name.getText(file) === 'returnObjects' &&
              property.initializer.kind === ts.SyntaxKind.TrueKeyword,
          );
        uses.push({ key, objects, where: where(node) });
      }
    }
    if (ts.isJsxAttribute(node) && node.name.getText(file) === 'i18nKey' && node.initializer) {
      const init = node.initializer;
      const key = ts.isStringLiteral(init)
        ? init.text
        : ts.isJsxExpression(init)
          ? literal(init.expression)
          : undefined;
      if (key !== undefined) uses.push({ key, objects: false, where: where(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}

/** What a key names in a strings tree: text, a list or object, or nothing. */
function lookUp(strings: unknown, key: string): 'text' | 'objects' | 'missing' {
  let node: unknown = strings;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return 'missing';
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string'
    ? 'text'
    : node !== null && typeof node === 'object'
      ? 'objects'
      : 'missing';
}

/** Why a used key does not resolve, or null when it does. */
function problem(use: KeyUse): string | null {
  const [namespace, key] = use.key.includes(':')
    ? (use.key.split(':', 2) as [string, string])
    : ['translation', use.key];
  const strings = namespace === 'msg' ? MESSAGES.en : namespace === 'translation' ? en : undefined;
  if (strings === undefined) return `${use.where}  ${use.key}: unknown namespace ${namespace}`;
  const found = lookUp(strings, key);
  // i18next plurals: t('x', { count }) reads x_one / x_other.
  const plural = lookUp(strings, `${key}_other`) === 'text';
  if (found === 'text' || plural) return null;
  if (found === 'objects' && use.objects) return null;
  if (found === 'objects') return `${use.where}  ${use.key}: names a list or object, not a text`;
  return `${use.where}  ${use.key}: missing`;
}

describe('translation keys used in the source', () => {
  it('the scanner finds t(), i18next.t() and i18nKey literals and checks them (self-check)', () => {
    const snippet = [
      "t('language.title');",
      "i18next.t('msg:ok', { x: 1 });",
      "t('service.intro.steps', { returnObjects: true });",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet is source code the scanner reads
      't(`home.${key}Title`);',
      "const A = () => <Trans i18nKey='auth.agreement' />;",
      "t('typo.key');",
      "t('msg:noSuchMessage');",
      "t('service.intro.steps');",
      "t('other:thing');",
    ].join('\n');
    const uses = keysUsedIn('snippet.tsx', snippet);
    expect(uses.map((use) => use.key)).toEqual([
      'language.title',
      'msg:ok',
      'service.intro.steps',
      'auth.agreement',
      'typo.key',
      'msg:noSuchMessage',
      'service.intro.steps',
      'other:thing',
    ]);
    expect(uses.map(problem).filter(Boolean)).toEqual([
      'snippet.tsx:6  typo.key: missing',
      'snippet.tsx:7  msg:noSuchMessage: missing',
      'snippet.tsx:8  service.intro.steps: names a list or object, not a text',
      'snippet.tsx:9  other:thing: unknown namespace other',
    ]);
  });

  it('every literal key used under apps/web/src exists in en.json or the contract messages', () => {
    const uses = sourceFiles(SRC).flatMap((path) =>
      keysUsedIn(relative(SRC, path).replaceAll('\\', '/'), readFileSync(path, 'utf8')),
    );
    // Not vacuous: the app asks for well over a thousand strings by literal key.
    expect(uses.length).toBeGreaterThan(500);
    const problems = uses.map(problem).filter((line): line is string => line !== null);
    expect(problems, `keys the locale files do not have:\n${problems.join('\n')}`).toEqual([]);
  });
});
