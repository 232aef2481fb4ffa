/**
 * The web's module boundaries (docs/architecture.md, "Boundaries"), checked by `npm run lint` through
 * scripts/lint-boundaries.sh:
 * - no import cycles, type imports included;
 * - a feature does not import another feature's files: what two features share lives in `shared/`
 *   (or the contract), and pages are put together by the router in `app/`. Tests may reach anywhere.
 * Violations that predate the rule are listed in .dependency-cruiser-known-violations.json; the list
 * only shrinks: a new one fails the lint.
 */
const base = require('../../dependency-cruiser.base.cjs');

module.exports = {
  forbidden: [
    base.noCircular,
    {
      name: 'no-feature-internals',
      comment: "Another feature's file: move what both need to shared/, or compose them in app/.",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/features/([^/]+)/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'no-shared-into-features',
      comment: 'shared/ is below the features: it imports none of them.',
      severity: 'error',
      from: { path: '^src/shared/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/(features|app)/' },
    },
  ],
  options: base.options,
};
