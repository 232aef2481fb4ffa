CREATE TABLE "payout_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payout_id" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"gas_limit" bigint NOT NULL,
	"max_fee_per_gas" bigint NOT NULL,
	"max_priority_fee_per_gas" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"broadcast_at" timestamp with time zone,
	CONSTRAINT "payout_attempts_hash_check" CHECK ("payout_attempts"."tx_hash" ~ '^0x[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "payout_wallets" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_wallets_chain_id_address_pk" PRIMARY KEY("chain_id","address"),
	CONSTRAINT "payout_wallets_nonce_check" CHECK ("payout_wallets"."next_nonce" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"withdrawal_id" bigint NOT NULL,
	"chain_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"nonce" bigint NOT NULL,
	"to_address" text NOT NULL,
	"token_address" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"state" text NOT NULL,
	"sent_by" bigint,
	"sent_via" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"broadcast_at" timestamp with time zone,
	"mined_hash" text,
	"mined_block" bigint,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	"failure_reason" text,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payouts_amount_check" CHECK ("payouts"."amount_micro" > 0 and "payouts"."nonce" >= 0),
	CONSTRAINT "payouts_state_check" CHECK ("payouts"."state" in ('signed', 'broadcast', 'mined', 'confirmed', 'reverted', 'dropped')
        and ("payouts"."state" not in ('mined', 'confirmed', 'reverted') or "payouts"."mined_hash" is not null)
        and ("payouts"."state" not in ('confirmed', 'reverted', 'dropped') or "payouts"."finished_at" is not null)
        and ("payouts"."state" not in ('reverted', 'dropped') or length("payouts"."failure_reason") > 0)),
	CONSTRAINT "payouts_via_check" CHECK ("payouts"."sent_via" in ('console', 'cli'))
);
--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_hash_unique" ON "payout_attempts" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "payout_attempts_payout_idx" ON "payout_attempts" USING btree ("payout_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_withdrawal_live_unique" ON "payouts" USING btree ("withdrawal_id") WHERE "payouts"."state" in ('signed', 'broadcast', 'mined', 'confirmed');--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_wallet_nonce_unique" ON "payouts" USING btree ("chain_id","from_address","nonce");--> statement-breakpoint
CREATE INDEX "payouts_state_idx" ON "payouts" USING btree ("state","nonce");--> statement-breakpoint
CREATE INDEX "payouts_withdrawal_idx" ON "payouts" USING btree ("withdrawal_id","id");