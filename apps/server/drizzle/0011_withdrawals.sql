CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"request_id" uuid NOT NULL,
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"address" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"cashback_micro" bigint NOT NULL,
	"rewards_micro" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"decided_via" text,
	"tx_hash" text,
	"failure_reason" text,
	CONSTRAINT "withdrawals_amount_check" CHECK ("withdrawals"."amount_micro" > 0 and "withdrawals"."cashback_micro" >= 0 and "withdrawals"."rewards_micro" >= 0
        and "withdrawals"."cashback_micro" + "withdrawals"."rewards_micro" = "withdrawals"."amount_micro"),
	CONSTRAINT "withdrawals_address_check" CHECK ("withdrawals"."address" ~ '^0x[0-9a-fA-F]{40}$'),
	CONSTRAINT "withdrawals_status_check" CHECK (("withdrawals"."status" = 'pending' and "withdrawals"."decided_at" is null and "withdrawals"."decided_via" is null
            and "withdrawals"."decided_by" is null and "withdrawals"."tx_hash" is null and "withdrawals"."failure_reason" is null)
        or ("withdrawals"."status" = 'completed' and "withdrawals"."decided_at" is not null and "withdrawals"."decided_via" in ('console', 'cli')
            and "withdrawals"."tx_hash" ~ '^0x[0-9a-f]{64}$' and "withdrawals"."failure_reason" is null)
        or ("withdrawals"."status" = 'failed' and "withdrawals"."decided_at" is not null and "withdrawals"."decided_via" in ('console', 'cli')
            and "withdrawals"."tx_hash" is null and length("withdrawals"."failure_reason") > 0)
        or ("withdrawals"."status" = 'cancelled' and "withdrawals"."decided_at" is not null and "withdrawals"."decided_via" = 'member'
            and "withdrawals"."decided_by" is null and "withdrawals"."tx_hash" is null and "withdrawals"."failure_reason" is null))
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_user_request_unique" ON "withdrawals" USING btree ("user_id","request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_tx_hash_unique" ON "withdrawals" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_created_idx" ON "withdrawals" USING btree ("status","created_at","id");--> statement-breakpoint
-- A withdrawal is decided once (docs/withdrawals.md): only a pending row may change, only into a
-- decided one, and only its decision fields; the request itself (member, UID, address, amounts, time)
-- never changes, and no row is removed. Drizzle cannot express triggers, hence this hand-written part.
CREATE OR REPLACE FUNCTION withdrawals_guard_decision() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'withdrawals: % refused', TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' THEN
    RAISE EXCEPTION 'withdrawal % is already %', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
  END IF;
  IF NEW.status = 'pending'
    OR NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.request_id <> OLD.request_id
    OR NEW.plat_id <> OLD.plat_id OR NEW.uid <> OLD.uid OR NEW.address <> OLD.address
    OR NEW.amount_micro <> OLD.amount_micro OR NEW.cashback_micro <> OLD.cashback_micro
    OR NEW.rewards_micro <> OLD.rewards_micro OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'withdrawal %: only a decision may change a pending withdrawal', OLD.id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER withdrawals_decide_once BEFORE UPDATE OR DELETE ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION withdrawals_guard_decision();
--> statement-breakpoint
CREATE TRIGGER withdrawals_no_truncate BEFORE TRUNCATE ON withdrawals
  FOR EACH STATEMENT EXECUTE FUNCTION withdrawals_guard_decision();
