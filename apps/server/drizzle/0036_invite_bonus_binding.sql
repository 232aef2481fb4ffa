-- Invite bonuses wait for their friend's ownership check (docs/withdrawals.md): each bonus names the
-- binding whose records paid it and when that binding's hold ends (if it was unconfirmed then). Rows
-- booked before this migration have neither and are never held.
ALTER TABLE "event_rewards" ADD COLUMN "binding_id" bigint;--> statement-breakpoint
ALTER TABLE "event_rewards" ADD COLUMN "hold_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_rewards" ADD CONSTRAINT "event_rewards_binding_id_exchange_bindings_id_fk" FOREIGN KEY ("binding_id") REFERENCES "public"."exchange_bindings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_rewards_held_idx" ON "event_rewards" USING btree ("user_id","hold_ends_at") WHERE "event_rewards"."hold_ends_at" is not null;--> statement-breakpoint
CREATE INDEX "event_rewards_binding_idx" ON "event_rewards" USING btree ("binding_id","user_id") WHERE "event_rewards"."binding_id" is not null;