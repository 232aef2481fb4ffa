ALTER TABLE "payouts" DROP CONSTRAINT "payouts_via_check";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_status_check";--> statement-breakpoint
CREATE INDEX "payouts_auto_created_idx" ON "payouts" USING btree ("created_at") WHERE "payouts"."sent_via" = 'auto';--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_via_check" CHECK ("payouts"."sent_via" in ('console', 'cli', 'auto') and ("payouts"."sent_via" <> 'auto' or "payouts"."sent_by" is null));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_status_check" CHECK (("withdrawals"."status" = 'pending' and "withdrawals"."decided_at" is null and "withdrawals"."decided_via" is null
            and "withdrawals"."decided_by" is null and "withdrawals"."tx_hash" is null and "withdrawals"."failure_reason" is null)
        or ("withdrawals"."status" = 'completed' and "withdrawals"."decided_at" is not null and "withdrawals"."decided_via" in ('console', 'cli', 'auto')
            and "withdrawals"."tx_hash" ~ '^0x[0-9a-f]{64}$' and "withdrawals"."failure_reason" is null)
        or ("withdrawals"."status" = 'failed' and "withdrawals"."decided_at" is not null and "withdrawals"."decided_via" in ('console', 'cli')
            and "withdrawals"."tx_hash" is null and length("withdrawals"."failure_reason") > 0)
        or ("withdrawals"."status" = 'cancelled' and "withdrawals"."decided_at" is not null and "withdrawals"."decided_via" = 'member'
            and "withdrawals"."decided_by" is null and "withdrawals"."tx_hash" is null and "withdrawals"."failure_reason" is null));