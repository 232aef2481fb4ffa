CREATE TABLE "corrections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"account" text NOT NULL,
	"plat_id" integer,
	"uid" text,
	"account_code" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"needs_approval" boolean NOT NULL,
	"proposed_by_id" bigint,
	"proposed_by" text NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"decided_by_id" bigint,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"rejection_reason" text,
	"journal_id" bigint,
	CONSTRAINT "corrections_amount_check" CHECK ("corrections"."amount_micro" <> 0),
	CONSTRAINT "corrections_account_check" CHECK (("corrections"."account" = 'cashback' and "corrections"."plat_id" is not null and "corrections"."uid" is not null
            and "corrections"."account_code" = 'cashback:' || "corrections"."plat_id" || ':' || "corrections"."uid")
        or ("corrections"."account" = 'rewards' and "corrections"."plat_id" is null and "corrections"."uid" is null
            and "corrections"."account_code" = 'rewards:' || "corrections"."user_id")),
	CONSTRAINT "corrections_status_check" CHECK (("corrections"."status" = 'pending' and "corrections"."decided_at" is null and "corrections"."decided_by" is null
            and "corrections"."journal_id" is null and "corrections"."rejection_reason" is null)
        or ("corrections"."status" = 'posted' and "corrections"."decided_at" is not null and "corrections"."decided_by" is not null
            and "corrections"."journal_id" is not null and "corrections"."rejection_reason" is null)
        or ("corrections"."status" = 'rejected' and "corrections"."decided_at" is not null and "corrections"."decided_by" is not null
            and "corrections"."journal_id" is null and length("corrections"."rejection_reason") > 0))
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_proposed_by_id_users_id_fk" FOREIGN KEY ("proposed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_journal_id_ledger_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."ledger_journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corrections_status_proposed_idx" ON "corrections" USING btree ("status","proposed_at","id");--> statement-breakpoint
CREATE INDEX "corrections_user_idx" ON "corrections" USING btree ("user_id","proposed_at");--> statement-breakpoint
CREATE INDEX "corrections_account_idx" ON "corrections" USING btree ("account_code","status");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('commission', 'cashback', 'rewards', 'rewards-expense', 'hold', 'payout', 'adjustments'));--> statement-breakpoint
-- A correction is decided once (docs/operator-console.md, "Corrections"): only a pending row may
-- change, only into a decided one, and only its decision fields; what was proposed (member, account,
-- amount, reason, proposer) never changes, and no row is removed.
CREATE OR REPLACE FUNCTION corrections_guard_decision() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'corrections: % refused', TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' THEN
    RAISE EXCEPTION 'correction % is already %', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
  END IF;
  IF NEW.status = 'pending'
    OR NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.account <> OLD.account
    OR NEW.account_code <> OLD.account_code OR NEW.amount_micro <> OLD.amount_micro
    OR NEW.reason <> OLD.reason OR NEW.needs_approval <> OLD.needs_approval
    OR NEW.proposed_by <> OLD.proposed_by OR NEW.proposed_at <> OLD.proposed_at
    OR NEW.proposed_by_id IS DISTINCT FROM OLD.proposed_by_id THEN
    RAISE EXCEPTION 'correction %: only a decision may change a pending correction', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER corrections_decide_once BEFORE UPDATE OR DELETE ON corrections
  FOR EACH ROW EXECUTE FUNCTION corrections_guard_decision();
--> statement-breakpoint
CREATE TRIGGER corrections_no_truncate BEFORE TRUNCATE ON corrections
  FOR EACH STATEMENT EXECUTE FUNCTION corrections_guard_decision();
