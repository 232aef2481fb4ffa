-- Two of the rebates' indexes reshaped for a member's calls (issue 14; docs/decisions.md, "The binding
-- detail and the pending estimates in one statement each"). The number of indexes stays nine.
-- * By UID, period end and id: a member's records of a UID newest first, ties by id, are the index's
--   own order, so a page stops after its rows whatever plan PostgreSQL keeps for the named statement
--   (with period end alone a generic plan sorted all of a heavy trader's records for each page).
-- * Pending records by UID: a member's estimates read their own UID's pending records, where the index
--   by period end made them read every pending record of the exchange (a whole day's import before it
--   settles). Settlement numbers the due records by UID and period end, this index's order.
-- The new indexes are built before the old ones go, so the member calls always have one.
CREATE INDEX "rebates_plat_uid_period_end_id_idx" ON "rebates" USING btree ("plat_id","uid","period_end","id");--> statement-breakpoint
CREATE INDEX "rebates_pending_uid_idx" ON "rebates" USING btree ("plat_id","uid","period_end") WHERE "rebates"."status" = 'pending';--> statement-breakpoint
DROP INDEX "rebates_plat_uid_period_end_idx";--> statement-breakpoint
DROP INDEX "rebates_pending_idx";
