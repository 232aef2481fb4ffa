-- Each UID's paid cashback per trading day (issue 14; docs/decisions.md, "The binding detail's chart from
-- kept days"): the UTC day its records' periods start, completed records with an amount only. The binding
-- detail's chart reads 90 rows here, not a heavy trader's 24 records a day. Kept by statement triggers
-- over the rows each statement stores or settles, as rebate_uid_totals is; ledger:check proves the
-- figures equal the records' sums.
CREATE TABLE "rebate_uid_days" (
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"day" date NOT NULL,
	"amount_micro" numeric NOT NULL,
	CONSTRAINT "rebate_uid_days_plat_id_uid_day_pk" PRIMARY KEY("plat_id","uid","day")
);--> statement-breakpoint
INSERT INTO rebate_uid_days (plat_id, uid, day, amount_micro)
  SELECT plat_id, uid, (period_start AT TIME ZONE 'UTC')::date, sum(amount_micro)
  FROM rebates WHERE status = 'completed' AND amount_micro > 0
  GROUP BY plat_id, uid, (period_start AT TIME ZONE 'UTC')::date;--> statement-breakpoint
-- Rows are added in key order, as rebate_uid_totals' are: the writers of one exchange's records hold
-- its ledger lock, so two statements never move the same UID's days at once.
CREATE OR REPLACE FUNCTION rebates_days_after_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO rebate_uid_days AS d (plat_id, uid, day, amount_micro)
    SELECT plat_id, uid, (period_start AT TIME ZONE 'UTC')::date AS day, sum(amount_micro)
    FROM new_rebates WHERE status = 'completed' AND amount_micro > 0
    GROUP BY plat_id, uid, (period_start AT TIME ZONE 'UTC')::date
    ORDER BY plat_id, uid COLLATE "C", day
  ON CONFLICT (plat_id, uid, day) DO UPDATE SET amount_micro = d.amount_micro + excluded.amount_micro;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Settling completes a pending record (or a refused one whose UID joined the roster); a completed
-- record never changes again (rebates_settle_once), so only that move adds.
CREATE OR REPLACE FUNCTION rebates_days_after_update() RETURNS trigger AS $$
BEGIN
  INSERT INTO rebate_uid_days AS d (plat_id, uid, day, amount_micro)
    SELECT n.plat_id, n.uid, (n.period_start AT TIME ZONE 'UTC')::date AS day, sum(n.amount_micro)
    FROM old_rebates o JOIN new_rebates n ON n.id = o.id
    WHERE n.status = 'completed' AND n.amount_micro > 0 AND o.status IS DISTINCT FROM 'completed'
    GROUP BY n.plat_id, n.uid, (n.period_start AT TIME ZONE 'UTC')::date
    ORDER BY n.plat_id, n.uid COLLATE "C", day
  ON CONFLICT (plat_id, uid, day) DO UPDATE SET amount_micro = d.amount_micro + excluded.amount_micro;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER rebates_days_insert AFTER INSERT ON rebates
  REFERENCING NEW TABLE AS new_rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_days_after_insert();--> statement-breakpoint
CREATE TRIGGER rebates_days_update AFTER UPDATE ON rebates
  REFERENCING OLD TABLE AS old_rebates NEW TABLE AS new_rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_days_after_update();
