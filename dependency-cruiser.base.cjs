/**
 * What every package's boundary rules share (docs/architecture.md, "Boundaries"): no import cycles,
 * type imports included, resolved by the package's own tsconfig.json.
 */
module.exports = {
  noCircular: {
    name: 'no-circular',
    comment: 'An import cycle: break it by moving what both need into a lower file.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
