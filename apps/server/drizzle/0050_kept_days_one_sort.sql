-- The kept days of an import's records in one sort (issue 14; docs/decisions.md, "What the statement
-- triggers of `rebates` cost the import"). rebates_days_after_insert grouped by the UID in the
-- database's collation and then sorted again by the UID in "C" for its key-order upsert: two sorts of
-- every stored page. Grouping by the UID in "C" gives the same groups (a database's default collation
-- is deterministic: equal means the same bytes) already in that order, so one sort serves both. Same
-- rows, same sums, same order of the upsert; only the plan changes.
CREATE OR REPLACE FUNCTION rebates_days_after_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO rebate_uid_days AS d (plat_id, uid, day, amount_micro)
    SELECT plat_id, uid COLLATE "C", (period_start AT TIME ZONE 'UTC')::date AS day, sum(amount_micro)
    FROM new_rebates WHERE status = 'completed' AND amount_micro > 0
    GROUP BY plat_id, uid COLLATE "C", (period_start AT TIME ZONE 'UTC')::date
    ORDER BY plat_id, uid COLLATE "C", day
  ON CONFLICT (plat_id, uid, day) DO UPDATE SET amount_micro = d.amount_micro + excluded.amount_micro;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
