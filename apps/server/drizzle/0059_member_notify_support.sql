-- supportList kept per member (issue 14; docs/decisions.md, "supportList and seeAdjustments kept per
-- member (2026-11-30, issue 14; migration 0059)"): /elex/support/list shows the member's own
-- requests, each from its `support_requests` row alone (id, kind, plat_id, uid, status,
-- resolution, created_at, updated_at; the page ordered by updated_at and id, counted by user_id). Messages, images and operator answers are not shown in
-- the list: every reply (the member's or an operator's) and every decision updates the request's row
-- (status, updated_at, resolution), which this trigger tells. So every request inserted or deleted,
-- and every update of a column the list shows (or of user_id: a request moved by hand leaves one
-- member's list for another's), now names its member, before and after. Nothing in it depends on the
-- clock, the member's language or configuration.
--
-- 0052's function (with 0055's elex_notify_dispute_members, unchanged here) kept as it was: a
-- dispute opened, changed, closed or deleted still names every member who ever bound its UID, their
-- inviters paid bonuses by those bindings, the members of bonuses it holds, and the UID tokens; the
-- members and the UIDs in one pass over the statement's rows.
CREATE OR REPLACE FUNCTION support_requests_notify_members() RETURNS trigger AS $$
DECLARE
  ids bigint[];
  plat_ids integer[];
  uids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(SELECT DISTINCT user_id FROM new_rows));
    SELECT array_agg(id), array_agg(plat_id), array_agg(uid) INTO ids, plat_ids, uids
      FROM new_rows WHERE kind = 'uidBoundByOther';
  ELSIF TG_OP = 'UPDATE' THEN
    -- The requesters of rows whose listed columns changed, both sides.
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (n.user_id, n.kind, n.plat_id, n.uid, n.status, n.resolution, n.created_at, n.updated_at)
          IS DISTINCT FROM (o.user_id, o.kind, o.plat_id, o.uid, o.status, o.resolution, o.created_at, o.updated_at)
      UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (n.user_id, n.kind, n.plat_id, n.uid, n.status, n.resolution, n.created_at, n.updated_at)
          IS DISTINCT FROM (o.user_id, o.kind, o.plat_id, o.uid, o.status, o.resolution, o.created_at, o.updated_at)));
    -- Both sides of a changed dispute: what it froze before and what it freezes now (0052). Not a
    -- change of what those answers never read (the text's updated_at, the resolution, the operator).
    SELECT array_agg(id), array_agg(plat_id), array_agg(uid) INTO ids, plat_ids, uids
      FROM (SELECT o.id, o.plat_id, o.uid FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.kind = 'uidBoundByOther' OR n.kind = 'uidBoundByOther')
                AND (n.kind, n.status, n.plat_id, n.uid, n.created_at, n.closed_at)
                  IS DISTINCT FROM (o.kind, o.status, o.plat_id, o.uid, o.created_at, o.closed_at)
            UNION ALL
            SELECT n.id, n.plat_id, n.uid FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.kind = 'uidBoundByOther' OR n.kind = 'uidBoundByOther')
                AND (n.kind, n.status, n.plat_id, n.uid, n.created_at, n.closed_at)
                  IS DISTINCT FROM (o.kind, o.status, o.plat_id, o.uid, o.created_at, o.closed_at)) changed;
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT DISTINCT user_id FROM old_rows));
    SELECT array_agg(id), array_agg(plat_id), array_agg(uid) INTO ids, plat_ids, uids
      FROM old_rows WHERE kind = 'uidBoundByOther';
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM elex_notify_dispute_members(ids, plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- seeAdjustments kept per member too (docs/decisions.md, same section): it shows posted corrections
-- of the member's rewards (`rewards:<user_id>`) and of the UIDs the member holds now. Posting books
-- the correction's ledger lines in the same transaction (0028/0055's ledger_lines trigger names the
-- rewards' member, or the UID's live holder and the UID); this trigger names them from the
-- correction's own row too, so a row that becomes posted (or stops being, or is written or removed
-- posted) tells them whatever lines it has. 0017 refuses every change of a decided row, deletes and
-- TRUNCATE; the DELETE trigger is for a hand repair made with that guard off.
CREATE OR REPLACE FUNCTION corrections_notify_members() RETURNS trigger AS $$
DECLARE
  members bigint[];
  plat_ids integer[];
  uids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(user_id) FILTER (WHERE account = 'rewards'),
           array_agg(plat_id) FILTER (WHERE account = 'cashback'),
           array_agg(uid) FILTER (WHERE account = 'cashback')
      INTO members, plat_ids, uids
      FROM new_rows WHERE status = 'posted';
  ELSIF TG_OP = 'UPDATE' THEN
    -- Both sides of a row whose shown columns changed while either side is posted.
    SELECT array_agg(user_id) FILTER (WHERE account = 'rewards'),
           array_agg(plat_id) FILTER (WHERE account = 'cashback'),
           array_agg(uid) FILTER (WHERE account = 'cashback')
      INTO members, plat_ids, uids
      FROM (SELECT o.user_id, o.account, o.plat_id, o.uid FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.status = 'posted' OR n.status = 'posted')
                AND (n.status, n.user_id, n.account, n.plat_id, n.uid, n.account_code, n.amount_micro,
                     n.reason, n.decided_at)
                  IS DISTINCT FROM (o.status, o.user_id, o.account, o.plat_id, o.uid, o.account_code,
                     o.amount_micro, o.reason, o.decided_at)
            UNION ALL
            SELECT n.user_id, n.account, n.plat_id, n.uid FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.status = 'posted' OR n.status = 'posted')
                AND (n.status, n.user_id, n.account, n.plat_id, n.uid, n.account_code, n.amount_micro,
                     n.reason, n.decided_at)
                  IS DISTINCT FROM (o.status, o.user_id, o.account, o.plat_id, o.uid, o.account_code,
                     o.amount_micro, o.reason, o.decided_at)) changed;
  ELSE
    SELECT array_agg(user_id) FILTER (WHERE account = 'rewards'),
           array_agg(plat_id) FILTER (WHERE account = 'cashback'),
           array_agg(uid) FILTER (WHERE account = 'cashback')
      INTO members, plat_ids, uids
      FROM old_rows WHERE status = 'posted';
  END IF;
  IF members IS NOT NULL THEN
    PERFORM elex_notify_members(members);
  END IF;
  IF uids IS NOT NULL THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM unnest(plat_ids, uids) AS t(plat_id, uid)
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
    PERFORM elex_notify_uids(plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER corrections_notify_inserted AFTER INSERT ON corrections
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION corrections_notify_members();--> statement-breakpoint
CREATE TRIGGER corrections_notify_updated AFTER UPDATE ON corrections
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION corrections_notify_members();--> statement-breakpoint
CREATE TRIGGER corrections_notify_deleted AFTER DELETE ON corrections
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION corrections_notify_members();
