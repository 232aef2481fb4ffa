-- More member answers kept per process (issue 14; docs/decisions.md, "getSettings, profile and
-- isSignTody kept like myInfo"): what they show must notify `elex_member_changed` as 0028's triggers
-- do for sessions and myInfo. The members row: every column getSettings or profile shows, or that
-- decides whether they answer (e-mail, codes, consent, withdrawal lock, joined, deleted, suspended);
-- not the locale a login writes, nor the password hash alone (a change also moves the lock). A
-- deleted row names its member, a TRUNCATE everyone.
CREATE OR REPLACE FUNCTION users_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (n.email, n.user_code, n.invite_code, n.marketing_consent, n.withdrawal_locked_until,
               n.created_at, n.deleted_at, n.suspended_at)
          IS DISTINCT FROM (o.email, o.user_code, o.invite_code, o.marketing_consent,
               o.withdrawal_locked_until, o.created_at, o.deleted_at, o.suspended_at)));
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT id FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER users_notify_deleted AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_notify_members();--> statement-breakpoint
CREATE TRIGGER users_notify_truncated AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Check-ins (isSignTody): a member's day checked in, changed or removed. Kept answers are keyed by
-- the UTC day, so a new day is a new key and never yesterday's answer.
CREATE OR REPLACE FUNCTION check_ins_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(SELECT user_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows));
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER check_ins_notify_inserted AFTER INSERT ON check_ins
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION check_ins_notify_members();--> statement-breakpoint
CREATE TRIGGER check_ins_notify_updated AFTER UPDATE ON check_ins
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION check_ins_notify_members();--> statement-breakpoint
CREATE TRIGGER check_ins_notify_deleted AFTER DELETE ON check_ins
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION check_ins_notify_members();--> statement-breakpoint
CREATE TRIGGER check_ins_notify_truncated AFTER TRUNCATE ON check_ins
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Points and XME energy (profile's balances): not ledger lines, so 0028 says nothing of them. The
-- table is append-only (0002 refuses UPDATE, DELETE and TRUNCATE): an entry added names its member.
CREATE OR REPLACE FUNCTION points_entries_notify_members() RETURNS trigger AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(SELECT user_id FROM new_rows));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER points_entries_notify_inserted AFTER INSERT ON points_entries
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION points_entries_notify_members();
