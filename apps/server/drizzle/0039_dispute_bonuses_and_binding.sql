ALTER TABLE "event_rewards" ADD COLUMN "dispute_ids" bigint[];--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "binding_id" bigint;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_binding_id_exchange_bindings_id_fk" FOREIGN KEY ("binding_id") REFERENCES "public"."exchange_bindings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_rewards_dispute_idx" ON "event_rewards" USING gin ("dispute_ids") WHERE "event_rewards"."dispute_ids" is not null;