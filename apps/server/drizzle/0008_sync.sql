CREATE TABLE "sync_cursors" (
	"plat_id" integer PRIMARY KEY NOT NULL,
	"next_segment_start" timestamp with time zone NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plat_id" integer NOT NULL,
	"exchange" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"segments_total" integer DEFAULT 0 NOT NULL,
	"segments_done" integer DEFAULT 0 NOT NULL,
	"referrals_inserted" integer DEFAULT 0 NOT NULL,
	"referrals_known" integer DEFAULT 0 NOT NULL,
	"rebates_inserted" integer DEFAULT 0 NOT NULL,
	"rebates_duplicates" integer DEFAULT 0 NOT NULL,
	"rebates_settled" integer DEFAULT 0 NOT NULL,
	"failed_segment_start" timestamp with time zone,
	"error" text,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "sync_runs_status_check" CHECK ("sync_runs"."status" in ('running', 'succeeded', 'failed', 'skipped')),
	CONSTRAINT "sync_runs_trigger_check" CHECK ("sync_runs"."trigger" in ('job', 'cli')),
	CONSTRAINT "sync_runs_window_check" CHECK ("sync_runs"."window_end" >= "sync_runs"."window_start")
);
--> statement-breakpoint
ALTER TABLE "sync_cursors" ADD CONSTRAINT "sync_cursors_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_runs_plat_started_idx" ON "sync_runs" USING btree ("plat_id","started_at");--> statement-breakpoint
CREATE INDEX "sync_runs_started_idx" ON "sync_runs" USING btree ("started_at");