import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as schema from './schema.js';

/**
 * The guard of `qualified.ts`'s rule (2026-11-29). Drizzle writes a column interpolated in a
 * select-list or `returning` `sql` field of a one-table select without its table; inside a correlated
 * subquery the bare name is then the subquery's own column, and the query answers wrong without an
 * error (found three times). So in the server's source, inside a subquery of an `sql` template
 * (`(select ...)`, `exists (...)`), a table's column may be interpolated only when that table is the
 * subquery's own, unaliased (`from ${table}`): an outer row's column is written `qualified(column)` or
 * named in the SQL text. Static and cheap (the TypeScript parser over src, no database); it looks at
 * each template on its own, so a subquery put together from several templates is not seen.
 */
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const TABLES = new Set(
  Object.entries(schema)
    .filter(([, value]) => is(value, PgTable))
    .map(([name]) => name),
);
const KEYWORDS =
  /^(where|join|inner|left|right|full|cross|on|group|order|limit|offset|union|for|having|window|using)$/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const isSqlTag = (tag: ts.Expression) => ts.isIdentifier(tag) && tag.text === 'sql';

/** `table.column` interpolations inside a subquery of the template whose table is not its own. */
function outerColumnsIn(node: ts.TaggedTemplateExpression): string[] {
  if (!isSqlTag(node.tag) || !ts.isTemplateExpression(node.template)) return [];
  const { head, templateSpans } = node.template;
  const texts = [head.text, ...templateSpans.map((span) => span.literal.text)];
  const expressions = templateSpans.map((span) => span.expression);
  // The template's own tables: `from ${table}` / `join ${table}` not followed by an alias.
  const own = new Set<string>();
  expressions.forEach((expression, index) => {
    if (!ts.isIdentifier(expression) || !TABLES.has(expression.text)) return;
    if (!/\b(from|join)\s*$/i.test(texts[index] ?? '')) return;
    const after = texts[index + 1] ?? '';
    const alias = after.match(/^\s+(?:as\s+)?(\w+)/i);
    const aliasedBySpan = /^\s+as\s*$/i.test(after) || (after === ' ' && index + 1 < expressions.length);
    if ((alias?.[1] && !KEYWORDS.test(alias[1])) || aliasedBySpan) return;
    own.add(expression.text);
  });
  // Depth of subquery parentheses before each interpolation.
  const stack: boolean[] = [];
  const found: string[] = [];
  texts.forEach((text, index) => {
    for (let at = 0; at < text.length; at += 1) {
      if (text[at] === '(') {
        const opensSubquery =
          /^\(\s*select\b/i.test(text.slice(at)) || /\bexists\s*$/i.test(text.slice(0, at));
        stack.push(opensSubquery);
      } else if (text[at] === ')') stack.pop();
    }
    const expression = expressions[index];
    if (!expression || !stack.includes(true)) return;
    if (!ts.isPropertyAccessExpression(expression) || !ts.isIdentifier(expression.expression)) return;
    const table = expression.expression.text;
    if (TABLES.has(table) && !own.has(table)) found.push(`${table}.${expression.name.text}`);
  });
  return found;
}

function offenders(): string[] {
  const result: string[] = [];
  for (const path of sourceFiles(SRC)) {
    const text = readFileSync(path, 'utf8');
    if (!text.includes('sql`') && !text.includes('sql<')) continue;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isTaggedTemplateExpression(node)) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        for (const column of outerColumnsIn(node)) result.push(`${relative(SRC, path)}:${line} ${column}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return result;
}

describe('columns of an outer row inside an sql subquery', () => {
  it('are named with their table (qualified(...)), never interpolated bare', () => {
    expect(offenders()).toEqual([]);
  });
});
