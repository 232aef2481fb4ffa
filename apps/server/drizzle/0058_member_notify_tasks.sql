-- getExchangeTaskDetail kept per process (issue 14; docs/decisions.md, "getExchangeTaskDetail kept per
-- member (migration 0058)"). What read-models/member-task-facts.ts and the definitions show, table by
-- table: the member's live bindings and every binding of their UIDs (`volumeFrom`: 0028, 0052,
-- 0055-0057, with the UIDs), trading records of those UIDs (0053/0055; `rebate_uid_totals` is written
-- only by the records' own triggers, and kept:rebuild sends '*'), disputes of those UIDs (0052/0055 name
-- every member who ever bound the UID, and the UID), points entries (0051; append-only). Added here:
-- the XME binding, the social accounts, the payouts (another member paid for one of this member's
-- accounts) and every change of a task definition.
--
-- XME binding and social accounts: a row added, changed or removed names its member (old and new).
CREATE OR REPLACE FUNCTION elex_notify_row_members() RETURNS trigger AS $$
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
CREATE TRIGGER xme_bindings_notify_inserted AFTER INSERT ON xme_bindings
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_row_members();--> statement-breakpoint
CREATE TRIGGER xme_bindings_notify_updated AFTER UPDATE ON xme_bindings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_row_members();--> statement-breakpoint
CREATE TRIGGER xme_bindings_notify_deleted AFTER DELETE ON xme_bindings
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_row_members();--> statement-breakpoint
CREATE TRIGGER xme_bindings_notify_truncated AFTER TRUNCATE ON xme_bindings
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
CREATE TRIGGER social_accounts_notify_inserted AFTER INSERT ON social_accounts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_row_members();--> statement-breakpoint
CREATE TRIGGER social_accounts_notify_updated AFTER UPDATE ON social_accounts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_row_members();--> statement-breakpoint
CREATE TRIGGER social_accounts_notify_deleted AFTER DELETE ON social_accounts
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_row_members();--> statement-breakpoint
CREATE TRIGGER social_accounts_notify_truncated AFTER TRUNCATE ON social_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Payouts (append-only: 0012 refuses UPDATE, DELETE and TRUNCATE): one added names the member paid and
-- every member holding the account now, whose list stops offering the task for it: an exchange UID's
-- live holder (and the UID, as 0055: a member binding it before this commits is filed under it), the
-- member whose XME UID it is in any case, the members with that social id, verified or not.
CREATE OR REPLACE FUNCTION task_payouts_notify_members() RETURNS trigger AS $$
DECLARE
  plat_ids integer[];
  uids text[];
BEGIN
  SELECT array_agg(plat_id), array_agg(rest) INTO plat_ids, uids
    FROM (SELECT DISTINCT
            CASE WHEN split_part(account, ':', 1) ~ '^[0-9]{1,9}$'
              THEN split_part(account, ':', 1)::integer END AS plat_id,
            substr(account, strpos(account, ':') + 1) AS rest
          FROM new_rows) a
    WHERE plat_id IS NOT NULL;
  PERFORM elex_notify_members(ARRAY(
    SELECT n.user_id FROM new_rows n
    UNION SELECT b.user_id FROM unnest(plat_ids, uids) AS t(plat_id, uid)
      JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL
    UNION SELECT x.user_id FROM new_rows n
      JOIN xme_bindings x ON n.account LIKE 'xme:%' AND lower(x.xme_uid) = substr(n.account, 5)
    UNION SELECT s.user_id FROM new_rows n
      JOIN social_accounts s ON s.network = split_part(n.account, ':', 1)
        AND s.account_id = substr(n.account, strpos(n.account, ':') + 1)));
  IF uids IS NOT NULL THEN
    PERFORM elex_notify_uids(plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER task_payouts_notify_inserted AFTER INSERT ON task_payouts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_payouts_notify_members();--> statement-breakpoint
-- Definitions (0054 sent '*' only for one added, removed, renumbered or given another kind): the task
-- list shows every column (points, threshold, links, order, group, whether it shows), so every changed
-- row now drops everything. Operators change tasks a few times a year.
CREATE OR REPLACE FUNCTION task_definitions_notify_members() RETURNS trigger AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o FULL JOIN new_rows n ON n.id = o.id
      WHERE o.id IS NULL OR n.id IS NULL OR row(n.*) IS DISTINCT FROM row(o.*)
  ) THEN
    PERFORM pg_notify('elex_member_changed', '*');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
