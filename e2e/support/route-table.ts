import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { repoRoot } from './server.js';

type RouteAccess = 'any' | 'guest' | 'member';

export interface PageRoute {
  /** The route as the router writes it, e.g. `/admin/members/:userId`. */
  path: string;
  /** `guest`: under GuestOnly (a member is sent away); `member`: under RequireMember. */
  access: RouteAccess;
}

/**
 * Every page route of the web router (apps/web/src/app/router.tsx), read with the TypeScript parser
 * rather than copied, so a page added there is swept without touching the specs. A route is a
 * `page('segment', ...)` call (or `page(undefined, ...)` for an index) inside route objects whose
 * `path` values prefix it; an object whose `element` is `<GuestOnly />` or `<RequireMember />` sets
 * the access of everything below it. The catch-all `*` is left out (the 404 page is swept by name).
 */
export function readPageRoutes(file = path.join(repoRoot, 'apps/web/src/app/router.tsx')): PageRoute[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found: PageRoute[] = [];
  const join = (segments: string[]) => `/${segments.filter(Boolean).join('/')}`;

  const visit = (node: ts.Node, segments: string[], access: RouteAccess) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'page') {
      const [first] = node.arguments;
      if (first && ts.isStringLiteral(first)) found.push({ path: join([...segments, first.text]), access });
      else if (first && ts.isIdentifier(first) && first.text === 'undefined')
        found.push({ path: join(segments), access });
      return;
    }
    if (ts.isObjectLiteralExpression(node)) {
      let nextSegments = segments;
      let nextAccess = access;
      for (const property of node.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
        const { initializer } = property;
        if (property.name.text === 'path' && ts.isStringLiteral(initializer)) {
          if (initializer.text === '*') return;
          nextSegments = [...segments, initializer.text];
        }
        if (property.name.text === 'element' && ts.isJsxSelfClosingElement(initializer)) {
          const tag = initializer.tagName.getText(source);
          if (tag === 'GuestOnly') nextAccess = 'guest';
          if (tag === 'RequireMember') nextAccess = 'member';
        }
      }
      ts.forEachChild(node, (child) => visit(child, nextSegments, nextAccess));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, segments, access));
  };

  const routesDeclaration = source.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .find((declaration) => ts.isIdentifier(declaration.name) && declaration.name.text === 'routes');
  if (!routesDeclaration?.initializer) throw new Error(`no 'routes' table in ${file}`);
  visit(routesDeclaration.initializer, [], 'any');
  if (found.length === 0) throw new Error(`no page(...) routes found in ${file}`);
  return found;
}
