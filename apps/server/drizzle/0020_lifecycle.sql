ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_by" bigint;--> statement-breakpoint
ALTER TABLE "exchanges" ADD COLUMN "status" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_suspended_by_users_id_fk" FOREIGN KEY ("suspended_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_suspended_idx" ON "users" USING btree ("suspended_at") WHERE "users"."suspended_at" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_suspension_check" CHECK (("users"."suspended_at" is null) = ("users"."suspension_reason" is null));--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_status_check" CHECK ("exchanges"."status" in ('draft', 'live', 'retired'));