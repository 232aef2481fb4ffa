CREATE INDEX "rebates_created_idx" ON "rebates" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "rebates_open_idx" ON "rebates" USING btree ("plat_id","period_end","id") WHERE "rebates"."status" <> 'completed';--> statement-breakpoint
CREATE INDEX "referrals_plat_uid_bytes_idx" ON "referrals" USING btree ("plat_id",("uid" collate "C"));