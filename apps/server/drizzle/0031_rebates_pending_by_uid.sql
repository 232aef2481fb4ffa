-- Pending records indexed by UID (issue 14): a member's pending estimates read their own UID's records
-- (a page of the detail, expireRebate), where the index by period end made them read every pending
-- record of the exchange (a whole day's import before it settles). Settlement numbers the due records
-- by UID and period end, this index's order.
DROP INDEX "rebates_pending_idx";--> statement-breakpoint
CREATE INDEX "rebates_pending_uid_idx" ON "rebates" USING btree ("plat_id","uid","period_end") WHERE "rebates"."status" = 'pending';