-- Member answers cached per process (issue 14; docs/decisions.md, "Member answers cached per process,
-- evicted by NOTIFY"). Every change to what a member's session check or myInfo reads sends the
-- members' ids on channel `elex_member_changed`, and every instance drops what it kept for them. From
-- triggers, so every way the rows change is covered (services, imports, operator commands, psql); sent
-- at commit, so a rolled-back change says nothing. One notification per statement and 300 members, not
-- per row: an import posts 100,000 lines in a few statements.
CREATE OR REPLACE FUNCTION elex_notify_members(ids bigint[]) RETURNS void AS $$
BEGIN
  -- Ids comma-separated, in ascending order: up to 300 of 19 digits stay under NOTIFY's 8,000 bytes,
  -- and the same set twice in one transaction is one notification (PostgreSQL drops the copy).
  PERFORM pg_notify('elex_member_changed', string_agg(id::text, ',' ORDER BY id))
    FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / 300 AS chunk
          FROM (SELECT DISTINCT id FROM unnest(ids) AS t(id) WHERE id IS NOT NULL) d) numbered
    GROUP BY chunk;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- A TRUNCATE names no rows: every instance drops everything.
CREATE OR REPLACE FUNCTION elex_notify_all_members() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('elex_member_changed', '*');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Lines move kept balances, credited totals and rewards: the member behind each account they touch
-- (a UID's cashback: its live holder; rewards: the account's member; a withdrawal's hold: its member).
CREATE OR REPLACE FUNCTION ledger_lines_notify_members() RETURNS trigger AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(
    SELECT coalesce(a.user_id, b.user_id, w.user_id)
      FROM (SELECT DISTINCT account_id FROM new_lines) touched
      JOIN ledger_accounts a ON a.id = touched.account_id
      LEFT JOIN exchange_bindings b
        ON a.kind = 'cashback' AND b.plat_id = a.plat_id AND b.uid = a.uid AND b.unbound_at IS NULL
      LEFT JOIN withdrawals w ON a.kind = 'hold' AND w.id = a.reference_id
      WHERE a.kind IN ('cashback', 'rewards', 'hold')));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER ledger_lines_notify_members AFTER INSERT ON ledger_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_notify_members();--> statement-breakpoint
-- Bindings: the member of each row changed, and the live holder of its UID (whose view of the UID
-- starts after an earlier holder's account deletion).
CREATE OR REPLACE FUNCTION exchange_bindings_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT b.user_id FROM old_rows o
        JOIN exchange_bindings b ON b.plat_id = o.plat_id AND b.uid = o.uid AND b.unbound_at IS NULL));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER exchange_bindings_notify_inserted AFTER INSERT ON exchange_bindings
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exchange_bindings_notify_members();--> statement-breakpoint
CREATE TRIGGER exchange_bindings_notify_updated AFTER UPDATE ON exchange_bindings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exchange_bindings_notify_members();--> statement-breakpoint
CREATE TRIGGER exchange_bindings_notify_deleted AFTER DELETE ON exchange_bindings
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exchange_bindings_notify_members();--> statement-breakpoint
CREATE TRIGGER exchange_bindings_notify_truncated AFTER TRUNCATE ON exchange_bindings
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Sessions: a revocation (logout, password change or reset, suspension, deletion), a changed expiry,
-- a deleted row. Not the once-a-minute last_seen_at touch: it changes no answer.
CREATE OR REPLACE FUNCTION sessions_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT unnest(ARRAY[o.user_id, n.user_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (n.user_id, n.token_hash, n.expires_at, n.revoked_at)
          IS DISTINCT FROM (o.user_id, o.token_hash, o.expires_at, o.revoked_at)));
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER sessions_notify_updated AFTER UPDATE ON sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_members();--> statement-breakpoint
CREATE TRIGGER sessions_notify_deleted AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_members();--> statement-breakpoint
CREATE TRIGGER sessions_notify_truncated AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Members: a deletion or a suspension (each also revokes the sessions; this holds without that).
CREATE OR REPLACE FUNCTION users_notify_members() RETURNS trigger AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(
    SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (n.deleted_at, n.suspended_at) IS DISTINCT FROM (o.deleted_at, o.suspended_at)));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER users_notify_updated AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_notify_members();
