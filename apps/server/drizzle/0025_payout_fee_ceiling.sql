ALTER TABLE "alert_preferences" ADD COLUMN "payout_stuck" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "held_fee_asked" bigint;