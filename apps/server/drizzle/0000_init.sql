CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"page" text NOT NULL,
	"channel" text NOT NULL,
	"agent" text NOT NULL,
	"locale" text NOT NULL,
	"client_time" timestamp with time zone,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_events_received_at_idx" ON "analytics_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "analytics_events_page_idx" ON "analytics_events" USING btree ("page");