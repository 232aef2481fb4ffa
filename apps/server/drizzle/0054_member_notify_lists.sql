-- More member lists kept per process (issue 14; docs/decisions.md, "pointsHistory and signHistory
-- kept per member"): signHistory reads only `check_ins` (0051 notifies every change); pointsHistory
-- reads `points_entries` (0051 notifies an entry added; 0002 refuses the rest) and, for a task entry,
-- its task definition's kind (or none when the definition is gone). A definition added, removed,
-- renumbered or given another kind changes the pages of every member who was paid for it: operators
-- and seeds do this rarely, so every instance drops everything ('*').
CREATE OR REPLACE FUNCTION task_definitions_notify_members() RETURNS trigger AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o FULL JOIN new_rows n ON n.id = o.id
      WHERE o.id IS NULL OR n.id IS NULL OR n.kind IS DISTINCT FROM o.kind
  ) THEN
    PERFORM pg_notify('elex_member_changed', '*');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_updated AFTER UPDATE ON task_definitions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_definitions_notify_members();--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_inserted AFTER INSERT ON task_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_deleted AFTER DELETE ON task_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
CREATE TRIGGER task_definitions_notify_truncated AFTER TRUNCATE ON task_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();
--> statement-breakpoint
-- depositRecord: the member's withdrawals (every column shown: status, decision, hash, failure) and
-- each one's latest payout (state, chain, confirmations, mined hash) with its latest attempt's hash.
-- A withdrawal added or decided names its member (0011 lets only a decision change one, once, and
-- refuses DELETE and TRUNCATE; 0028's ledger trigger already hears the hold's lines of most, not a
-- decision written without them); a payout's or an attempt's change names its withdrawal's member.
CREATE OR REPLACE FUNCTION withdrawals_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(SELECT user_id FROM new_rows));
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER withdrawals_notify_inserted AFTER INSERT ON withdrawals
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION withdrawals_notify_members();--> statement-breakpoint
CREATE TRIGGER withdrawals_notify_updated AFTER UPDATE ON withdrawals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION withdrawals_notify_members();--> statement-breakpoint
-- Payouts: a new or removed attempt at a withdrawal, or one whose shown columns change (not the
-- lease, fee or error bookkeeping the sender writes while it polls).
CREATE OR REPLACE FUNCTION payouts_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT w.user_id FROM (SELECT DISTINCT withdrawal_id FROM new_rows) t JOIN withdrawals w ON w.id = t.withdrawal_id));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT w.user_id FROM (
        SELECT o.withdrawal_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (n.withdrawal_id, n.state, n.chain_id, n.confirmations, n.mined_hash)
            IS DISTINCT FROM (o.withdrawal_id, o.state, o.chain_id, o.confirmations, o.mined_hash)
        UNION SELECT n.withdrawal_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (n.withdrawal_id, n.state, n.chain_id, n.confirmations, n.mined_hash)
            IS DISTINCT FROM (o.withdrawal_id, o.state, o.chain_id, o.confirmations, o.mined_hash)
        UNION SELECT o.withdrawal_id FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id)
        UNION SELECT n.withdrawal_id FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id)
      ) t JOIN withdrawals w ON w.id = t.withdrawal_id));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT w.user_id FROM (SELECT DISTINCT withdrawal_id FROM old_rows) t JOIN withdrawals w ON w.id = t.withdrawal_id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER payouts_notify_inserted AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_notify_members();--> statement-breakpoint
CREATE TRIGGER payouts_notify_updated AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_notify_members();--> statement-breakpoint
CREATE TRIGGER payouts_notify_deleted AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_notify_members();--> statement-breakpoint
CREATE TRIGGER payouts_notify_truncated AFTER TRUNCATE ON payouts
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Attempts: the latest one's hash is shown until the payout is mined.
CREATE OR REPLACE FUNCTION payout_attempts_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT w.user_id FROM (SELECT DISTINCT payout_id FROM new_rows) t
        JOIN payouts p ON p.id = t.payout_id JOIN withdrawals w ON w.id = p.withdrawal_id));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT w.user_id FROM (SELECT payout_id FROM old_rows UNION SELECT payout_id FROM new_rows) t
        JOIN payouts p ON p.id = t.payout_id JOIN withdrawals w ON w.id = p.withdrawal_id));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT w.user_id FROM (SELECT DISTINCT payout_id FROM old_rows) t
        JOIN payouts p ON p.id = t.payout_id JOIN withdrawals w ON w.id = p.withdrawal_id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER payout_attempts_notify_inserted AFTER INSERT ON payout_attempts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payout_attempts_notify_members();--> statement-breakpoint
CREATE TRIGGER payout_attempts_notify_updated AFTER UPDATE ON payout_attempts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payout_attempts_notify_members();--> statement-breakpoint
CREATE TRIGGER payout_attempts_notify_deleted AFTER DELETE ON payout_attempts
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payout_attempts_notify_members();--> statement-breakpoint
CREATE TRIGGER payout_attempts_notify_truncated AFTER TRUNCATE ON payout_attempts
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();
