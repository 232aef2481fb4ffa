DROP INDEX "event_rewards_journal_key_unique";--> statement-breakpoint
ALTER TABLE "rebates" ADD COLUMN "journal_id" bigint;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_journal_id_ledger_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."ledger_journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_rewards_journal_key_idx" ON "event_rewards" USING btree ("journal_key");--> statement-breakpoint
CREATE INDEX "rebates_journal_idx" ON "rebates" USING btree ("journal_id") WHERE "rebates"."journal_id" is not null;--> statement-breakpoint
-- Records settled before this migration were credited by one journal each, keyed 'rebate:<id>':
-- they name it. The settle-once guard refuses any change to a settled record, so it steps aside for
-- this one statement, inside the migration's transaction.
ALTER TABLE "rebates" DISABLE TRIGGER "rebates_settle_once";--> statement-breakpoint
UPDATE "rebates" r SET "journal_id" = j."id" FROM "ledger_journals" j
  WHERE j."idempotency_key" = 'rebate:' || r."id" AND r."status" = 'completed' AND r."amount_micro" > 0;--> statement-breakpoint
ALTER TABLE "rebates" ENABLE TRIGGER "rebates_settle_once";--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_journal_check" CHECK (("rebates"."journal_id" is not null) = ("rebates"."status" = 'completed' and "rebates"."amount_micro" > 0));