-- The member's record lists kept per process (issue 14; docs/decisions.md, "seeRebateData and
-- seeRebateByExchangeId kept per member"): what they read and 0028/0051 did not notify must notify
-- `elex_member_changed` too. Each change names the live holder of the UIDs it touches (the member who
-- sees the records; a binding moved or ended notifies by 0028's bindings trigger).
-- Records: an import adds pending ones (no ledger line), settlement completes or fails them (a failed
-- one posts no line), an operator's restatement. 0007 refuses a TRUNCATE.
-- Support requests: a dispute's `frozen` in the detail is told by 0052's support_requests trigger (every
-- member who ever bound the disputed UID, its live holder among them).
CREATE OR REPLACE FUNCTION rebates_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM (SELECT DISTINCT plat_id, uid FROM old_rows) t
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM (SELECT DISTINCT plat_id, uid FROM new_rows) t
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER rebates_notify_inserted AFTER INSERT ON rebates
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_notify_members();--> statement-breakpoint
CREATE TRIGGER rebates_notify_updated AFTER UPDATE ON rebates
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_notify_members();--> statement-breakpoint
CREATE TRIGGER rebates_notify_deleted AFTER DELETE ON rebates
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_notify_members();--> statement-breakpoint
-- Roster lines: a registration time decides a pending record's estimate (the speed-up window).
CREATE OR REPLACE FUNCTION referrals_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM new_rows t
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM (SELECT plat_id, uid FROM old_rows UNION SELECT plat_id, uid FROM new_rows) t
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM old_rows t
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER referrals_notify_inserted AFTER INSERT ON referrals
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION referrals_notify_members();--> statement-breakpoint
CREATE TRIGGER referrals_notify_updated AFTER UPDATE ON referrals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION referrals_notify_members();--> statement-breakpoint
CREATE TRIGGER referrals_notify_deleted AFTER DELETE ON referrals
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION referrals_notify_members();--> statement-breakpoint
CREATE TRIGGER referrals_notify_truncated AFTER TRUNCATE ON referrals
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();
