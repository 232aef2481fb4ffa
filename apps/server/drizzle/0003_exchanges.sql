CREATE TABLE "exchange_activities" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"exchange_id" integer NOT NULL,
	"kind" text NOT NULL,
	"titles" jsonb NOT NULL,
	"activity_url" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_activities_kind_check" CHECK ("exchange_activities"."kind" in ('general', 'hot'))
);
--> statement-breakpoint
CREATE TABLE "exchange_vip_tiers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"exchange_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"level" text NOT NULL,
	"min_volume_30d_usdt" bigint,
	"min_asset_amount" bigint,
	"min_asset_symbol" text,
	"maker_fee_ppm" integer NOT NULL,
	"taker_fee_ppm" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchanges" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"abbreviation" text NOT NULL,
	"logo" text NOT NULL,
	"position" integer NOT NULL,
	"score_tenths" smallint NOT NULL,
	"cash_rate_bps" integer NOT NULL,
	"speed_up_cash_rate_bps" integer NOT NULL,
	"maker_fee_ppm" integer NOT NULL,
	"taker_fee_ppm" integer NOT NULL,
	"vip_rule" text NOT NULL,
	"marks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signup_url" text NOT NULL,
	"referral_code" text NOT NULL,
	"new_user_discount_percent" smallint NOT NULL,
	"new_user_discount_days" smallint NOT NULL,
	"is_recommended" boolean DEFAULT false NOT NULL,
	"is_racing" boolean DEFAULT false NOT NULL,
	"fees_checked_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchanges_score_check" CHECK ("exchanges"."score_tenths" between 0 and 100),
	CONSTRAINT "exchanges_rates_check" CHECK ("exchanges"."cash_rate_bps" between 0 and 10000 and "exchanges"."speed_up_cash_rate_bps" between 0 and 10000
        and "exchanges"."maker_fee_ppm" between 0 and 100000 and "exchanges"."taker_fee_ppm" between 0 and 100000),
	CONSTRAINT "exchanges_vip_rule_check" CHECK ("exchanges"."vip_rule" in ('either', 'both'))
);
--> statement-breakpoint
ALTER TABLE "exchange_activities" ADD CONSTRAINT "exchange_activities_exchange_id_exchanges_id_fk" FOREIGN KEY ("exchange_id") REFERENCES "public"."exchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_vip_tiers" ADD CONSTRAINT "exchange_vip_tiers_exchange_id_exchanges_id_fk" FOREIGN KEY ("exchange_id") REFERENCES "public"."exchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_activities_kind_idx" ON "exchange_activities" USING btree ("kind","position");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_vip_tiers_position_unique" ON "exchange_vip_tiers" USING btree ("exchange_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_abbreviation_unique" ON "exchanges" USING btree ("abbreviation");