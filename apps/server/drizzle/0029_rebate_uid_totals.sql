-- Kept totals of each UID's rebate records per status (issue 14; docs/decisions.md, "Member calls at a
-- million rows"): how many, their trading volume, their last arrival. A member's record list counts
-- from here, the trading-volume task sums from here and the detail page's last arrival is read here,
-- instead of reading every record of a heavy trader. Kept by statement triggers over the rows each
-- statement stores or settles (transition tables: one upsert per statement, not per row); ledger:check
-- proves the figures equal the records' aggregates.
CREATE TABLE "rebate_uid_totals" (
	"plat_id" integer NOT NULL,
	"uid" text NOT NULL,
	"status" text NOT NULL,
	"records" bigint NOT NULL,
	"trading_volume_micro" numeric NOT NULL,
	"last_created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rebate_uid_totals_plat_id_uid_status_pk" PRIMARY KEY("plat_id","uid","status")
);--> statement-breakpoint
INSERT INTO rebate_uid_totals (plat_id, uid, status, records, trading_volume_micro, last_created_at)
  SELECT plat_id, uid, status, count(*), sum(trading_volume_micro), max(created_at)
  FROM rebates GROUP BY plat_id, uid, status;--> statement-breakpoint
-- Rows are added in key order; the writers of one exchange's records hold its ledger lock, so two
-- statements never move the same UID's totals at once.
CREATE OR REPLACE FUNCTION rebates_totals_after_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO rebate_uid_totals AS t (plat_id, uid, status, records, trading_volume_micro, last_created_at)
    SELECT plat_id, uid, status, count(*), sum(trading_volume_micro), max(created_at)
    FROM new_rebates GROUP BY plat_id, uid, status
    ORDER BY plat_id, uid COLLATE "C", status
  ON CONFLICT (plat_id, uid, status) DO UPDATE SET
    records = t.records + excluded.records,
    trading_volume_micro = t.trading_volume_micro + excluded.trading_volume_micro,
    last_created_at = greatest(t.last_created_at, excluded.last_created_at);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Settling moves a record from one status to another: out of its old row, into its new one (a row
-- left at zero records stays; its last arrival is still the UID's, read across statuses).
CREATE OR REPLACE FUNCTION rebates_totals_after_update() RETURNS trigger AS $$
BEGIN
  UPDATE rebate_uid_totals t SET records = t.records - m.records,
      trading_volume_micro = t.trading_volume_micro - m.volume
    FROM (SELECT o.plat_id, o.uid, o.status, count(*) AS records, sum(o.trading_volume_micro) AS volume
          FROM old_rebates o JOIN new_rebates n ON n.id = o.id
          WHERE n.status IS DISTINCT FROM o.status
          GROUP BY o.plat_id, o.uid, o.status) m
    WHERE t.plat_id = m.plat_id AND t.uid = m.uid AND t.status = m.status;
  INSERT INTO rebate_uid_totals AS t (plat_id, uid, status, records, trading_volume_micro, last_created_at)
    SELECT n.plat_id, n.uid, n.status, count(*), sum(n.trading_volume_micro), max(n.created_at)
    FROM old_rebates o JOIN new_rebates n ON n.id = o.id
    WHERE n.status IS DISTINCT FROM o.status
    GROUP BY n.plat_id, n.uid, n.status
    ORDER BY n.plat_id, n.uid COLLATE "C", n.status
  ON CONFLICT (plat_id, uid, status) DO UPDATE SET
    records = t.records + excluded.records,
    trading_volume_micro = t.trading_volume_micro + excluded.trading_volume_micro,
    last_created_at = greatest(t.last_created_at, excluded.last_created_at);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER rebates_totals_insert AFTER INSERT ON rebates
  REFERENCING NEW TABLE AS new_rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_totals_after_insert();--> statement-breakpoint
CREATE TRIGGER rebates_totals_update AFTER UPDATE ON rebates
  REFERENCING OLD TABLE AS old_rebates NEW TABLE AS new_rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_totals_after_update();
