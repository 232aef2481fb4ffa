CREATE TABLE "exchange_bindings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"address" text NOT NULL,
	"bound_at" timestamp with time zone NOT NULL,
	"unbound_at" timestamp with time zone,
	"unbind_reason" text,
	"unbound_by" bigint
);
--> statement-breakpoint
CREATE TABLE "xme_bindings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"xme_uid" text NOT NULL,
	"bound_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"source_user_id" bigint,
	"rebate_id" bigint,
	"bonus_percent" smallint,
	"journal_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_rewards_amount_check" CHECK ("event_rewards"."amount_micro" > 0)
);
--> statement-breakpoint
CREATE TABLE "rebates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"trading_volume_micro" bigint NOT NULL,
	"fee_micro" bigint NOT NULL,
	"commission_micro" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"cash_rate_bps" integer,
	"is_speed_up" boolean,
	"amount_micro" bigint,
	"source" text NOT NULL,
	"source_label" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "rebates_period_check" CHECK ("rebates"."period_end" > "rebates"."period_start"),
	CONSTRAINT "rebates_amounts_check" CHECK ("rebates"."trading_volume_micro" >= 0 and "rebates"."fee_micro" >= 0 and "rebates"."commission_micro" >= 0),
	CONSTRAINT "rebates_source_check" CHECK ("rebates"."source" in ('csv', 'api')),
	CONSTRAINT "rebates_status_check" CHECK (("rebates"."status" = 'pending' and "rebates"."amount_micro" is null and "rebates"."settled_at" is null
            and "rebates"."failure_reason" is null)
        or ("rebates"."status" = 'completed' and "rebates"."amount_micro" between 0 and "rebates"."commission_micro"
            and "rebates"."cash_rate_bps" is not null and "rebates"."settled_at" is not null
            and "rebates"."failure_reason" is null)
        or ("rebates"."status" = 'failed' and "rebates"."amount_micro" is null and "rebates"."settled_at" is not null
            and "rebates"."failure_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"source_label" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "referrals_source_check" CHECK ("referrals"."source" in ('csv', 'api'))
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"plat_id" integer,
	"uid" text,
	"user_id" bigint,
	"reference_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('commission', 'cashback', 'rewards', 'rewards-expense', 'hold', 'payout')),
	CONSTRAINT "ledger_accounts_code_check" CHECK ("ledger_accounts"."code" = coalesce(case "ledger_accounts"."kind"
        when 'commission' then 'commission:' || "ledger_accounts"."plat_id"
        when 'cashback' then 'cashback:' || "ledger_accounts"."plat_id" || ':' || "ledger_accounts"."uid"
        when 'rewards' then 'rewards:' || "ledger_accounts"."user_id"
        when 'hold' then 'hold:' || "ledger_accounts"."reference_id"
        else "ledger_accounts"."kind" end, ''))
);
--> statement-breakpoint
CREATE TABLE "ledger_journals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"memo" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journal_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "ledger_lines_amount_check" CHECK ("ledger_lines"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "exchange_bindings" ADD CONSTRAINT "exchange_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_bindings" ADD CONSTRAINT "exchange_bindings_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_bindings" ADD CONSTRAINT "exchange_bindings_unbound_by_users_id_fk" FOREIGN KEY ("unbound_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xme_bindings" ADD CONSTRAINT "xme_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_rewards" ADD CONSTRAINT "event_rewards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_rewards" ADD CONSTRAINT "event_rewards_source_user_id_users_id_fk" FOREIGN KEY ("source_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_rewards" ADD CONSTRAINT "event_rewards_rebate_id_rebates_id_fk" FOREIGN KEY ("rebate_id") REFERENCES "public"."rebates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_journal_id_ledger_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."ledger_journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_bindings_live_uid_unique" ON "exchange_bindings" USING btree ("plat_id","uid") WHERE "exchange_bindings"."unbound_at" is null;--> statement-breakpoint
CREATE INDEX "exchange_bindings_user_idx" ON "exchange_bindings" USING btree ("user_id","bound_at");--> statement-breakpoint
CREATE UNIQUE INDEX "xme_bindings_xme_uid_unique" ON "xme_bindings" USING btree ("xme_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "event_rewards_kind_rebate_unique" ON "event_rewards" USING btree ("kind","rebate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_rewards_journal_key_unique" ON "event_rewards" USING btree ("journal_key");--> statement-breakpoint
CREATE INDEX "event_rewards_user_created_idx" ON "event_rewards" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "rebates_natural_key_unique" ON "rebates" USING btree ("plat_id","uid","period_start","period_end");--> statement-breakpoint
CREATE INDEX "rebates_plat_uid_period_end_idx" ON "rebates" USING btree ("plat_id","uid","period_end");--> statement-breakpoint
CREATE INDEX "rebates_pending_idx" ON "rebates" USING btree ("plat_id","period_end") WHERE "rebates"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "referrals_plat_uid_unique" ON "referrals" USING btree ("plat_id","uid");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_unique" ON "ledger_accounts" USING btree ("code");--> statement-breakpoint
CREATE INDEX "ledger_accounts_kind_plat_uid_idx" ON "ledger_accounts" USING btree ("kind","plat_id","uid");--> statement-breakpoint
CREATE INDEX "ledger_accounts_user_id_idx" ON "ledger_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_journals_idempotency_key_unique" ON "ledger_journals" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_journals_kind_created_idx" ON "ledger_journals" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "ledger_lines_account_idx" ON "ledger_lines" USING btree ("account_id","id","amount");--> statement-breakpoint
CREATE INDEX "ledger_lines_journal_idx" ON "ledger_lines" USING btree ("journal_id");