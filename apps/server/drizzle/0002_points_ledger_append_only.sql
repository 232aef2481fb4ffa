-- The points and XME energy ledger is append-only (accounts issue): a correction is a new entry,
-- never an edit. Drizzle cannot express triggers, hence this custom migration.
CREATE OR REPLACE FUNCTION points_entries_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'points_entries is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER points_entries_no_update_delete
  BEFORE UPDATE OR DELETE ON points_entries
  FOR EACH ROW EXECUTE FUNCTION points_entries_refuse_change();
--> statement-breakpoint
CREATE TRIGGER points_entries_no_truncate
  BEFORE TRUNCATE ON points_entries
  FOR EACH STATEMENT EXECUTE FUNCTION points_entries_refuse_change();
