/** The contract's own rule (docs/architecture.md, "Boundaries"): no import cycles. */
const base = require('../../dependency-cruiser.base.cjs');

module.exports = {
  forbidden: [base.noCircular],
  options: base.options,
};
