/** The contract's own rule (docs/architecture.md, "Boundaries"): no import cycles. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: break it by moving what both need into a lower file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
