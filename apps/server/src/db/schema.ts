/**
 * All tables, one file per module re-exported here so Drizzle Kit sees the whole schema.
 * A module's tables are read and written only by that module's repository.
 */
export * from '../modules/admin/admin.tables.js';
export * from '../modules/alerts/alerts.tables.js';
export * from '../modules/analytics/analytics.tables.js';
export * from '../modules/auth/auth.tables.js';
export * from '../modules/bindings/bindings.tables.js';
export * from '../modules/cashback/cashback.tables.js';
export * from '../modules/corrections/corrections.tables.js';
export * from '../modules/exchanges/exchanges.tables.js';
export * from '../modules/exports/exports.tables.js';
export * from '../modules/invites/invites.tables.js';
export * from '../modules/ledger/ledger.tables.js';
export * from '../modules/mail/mail.tables.js';
export * from '../modules/payouts/payouts.tables.js';
export * from '../modules/points/check-in.tables.js';
export * from '../modules/points/points.tables.js';
export * from '../modules/promotions/promotions.tables.js';
export * from '../modules/support/support.tables.js';
export * from '../modules/sync/sync.tables.js';
export * from '../modules/tasks/tasks.tables.js';
export * from '../modules/withdrawals/withdrawals.tables.js';
