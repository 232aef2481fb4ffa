CREATE TABLE "payout_transfers" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"token_address" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"explanation" text,
	"explained_by" bigint,
	"explained_at" timestamp with time zone,
	CONSTRAINT "payout_transfers_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index"),
	CONSTRAINT "payout_transfers_hash_check" CHECK ("payout_transfers"."tx_hash" ~ '^0x[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "payout_wallets" ADD COLUMN "scan_from_block" bigint;--> statement-breakpoint
ALTER TABLE "payout_wallets" ADD COLUMN "scanned_to_block" bigint;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_explained_by_users_id_fk" FOREIGN KEY ("explained_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_transfers_hash_idx" ON "payout_transfers" USING btree ("tx_hash");