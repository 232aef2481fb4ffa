CREATE TABLE "alert_preferences" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"withdrawal_requested" boolean DEFAULT true NOT NULL,
	"sync_failing" boolean DEFAULT true NOT NULL,
	"ledger_broken" boolean DEFAULT true NOT NULL,
	"daily_summary" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts_sent" (
	"key" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "export_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"operator_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"from_day" date NOT NULL,
	"to_day" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "export_links_kind_check" CHECK ("export_links"."kind" in ('withdrawals', 'members', 'ledger', 'rebates', 'audit')),
	CONSTRAINT "export_links_range_check" CHECK ("export_links"."to_day" >= "export_links"."from_day")
);
--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD CONSTRAINT "alert_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_links" ADD CONSTRAINT "export_links_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_links_expires_idx" ON "export_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "rebates_period_start_idx" ON "rebates" USING btree ("period_start","id");--> statement-breakpoint
CREATE INDEX "ledger_journals_created_idx" ON "ledger_journals" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_created_idx" ON "withdrawals" USING btree ("created_at","id");