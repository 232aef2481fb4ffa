/**
 * The server's module boundaries (docs/architecture.md, "Boundaries"), checked by
 * `npm run lint` through scripts/lint-boundaries.sh:
 * - no import cycles, type imports included (a cycle makes load order and layering unreadable);
 * - a module reaches another module's tables and repositories only through that module's service:
 *   a `*.tables.ts` may reference another module's table (foreign keys), and any file may import a
 *   table's row type (`import type`), but no other code of one module queries another's tables;
 * - nor imports another module's routes (shared HTTP settings live in src/http);
 * - a query that must join several modules' tables (a console report, the fast lane's candidates) is a
 *   read model in src/read-models: it imports tables only, and never writes (boundaries.test.ts);
 * - tests and test helpers may reach anywhere (they set up state across modules).
 * Violations that predate the rule are listed in .dependency-cruiser-known-violations.json (made by
 * `npm run lint:boundaries:baseline`); the list only shrinks: a new one fails the lint.
 */
const TESTS = '(\\.test\\.ts|test-support\\.ts|/test/)';

const base = require('../../dependency-cruiser.base.cjs');

module.exports = {
  forbidden: [
    base.noCircular,
    {
      name: 'no-foreign-tables',
      comment: "Another module's tables: go through its service (or a type-only import of a row type).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: [TESTS, '\\.tables\\.ts$'] },
      to: {
        path: '^src/modules/([^/]+)/[^/]+\\.tables\\.ts$',
        pathNot: '^src/modules/$1/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-foreign-repositories',
      comment: "Another module's repository: go through its service.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/modules/([^/]+)/[^/]+\\.repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'no-foreign-routes',
      comment: "Another module's HTTP routes: what both need belongs below the modules (src/http, src/lib).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/modules/([^/]+)/[^/]+\\.routes\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'read-models-read-tables-only',
      comment:
        'A read model (src/read-models) joins tables of several modules for one screen or decision; it takes their tables, never their services, repositories or routes.',
      severity: 'error',
      from: { path: '^src/read-models/', pathNot: TESTS },
      to: { path: '^src/modules/', pathNot: '\\.tables\\.ts$' },
    },
    {
      name: 'no-modules-into-app',
      comment: 'Modules do not import the app, main or the CLI that wire them together.',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: TESTS },
      to: { path: '^src/(app|main|cli)\\.ts$' },
    },
  ],
  options: base.options,
};
