CREATE TABLE "uid_watches" (
	"user_id" bigint NOT NULL,
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "uid_watches_user_id_plat_id_uid_pk" PRIMARY KEY("user_id","plat_id","uid")
);
--> statement-breakpoint
ALTER TABLE "uid_watches" ADD CONSTRAINT "uid_watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uid_watches" ADD CONSTRAINT "uid_watches_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uid_watches_waiting_idx" ON "uid_watches" USING btree ("plat_id","uid") WHERE "uid_watches"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "rebates_unreferred_idx" ON "rebates" USING btree ("plat_id","uid") WHERE "rebates"."status" = 'failed' and "rebates"."failure_reason" = 'uidNotReferred';--> statement-breakpoint
-- Late rosters (issue 11): a record failed as 'uidNotReferred' settles again once its UID joins the
-- roster, so it may change from that state too, still only in its outcome; the exchange's figures
-- never change, nothing is removed, and every other settled record stays as it is.
CREATE OR REPLACE FUNCTION rebates_guard_settlement() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'rebates: % refused', TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending'
     AND NOT (OLD.status = 'failed' AND OLD.failure_reason = 'uidNotReferred' AND NEW.status <> 'pending') THEN
    RAISE EXCEPTION 'rebate % is already %', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
  END IF;
  IF (NEW.id, NEW.plat_id, NEW.uid, NEW.period_start, NEW.period_end, NEW.trading_volume_micro, NEW.fee_micro,
      NEW.commission_micro, NEW.source, NEW.source_label, NEW.created_at)
     IS DISTINCT FROM
     (OLD.id, OLD.plat_id, OLD.uid, OLD.period_start, OLD.period_end, OLD.trading_volume_micro, OLD.fee_micro,
      OLD.commission_micro, OLD.source, OLD.source_label, OLD.created_at) THEN
    RAISE EXCEPTION 'the reported figures of rebate % cannot change', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
