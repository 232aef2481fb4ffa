-- supportList kept per member (issue 14; docs/decisions.md, "supportList kept per member (migration
-- 0059)"): /elex/support/list shows the member's own requests, each from its `support_requests` row
-- alone (id, kind, plat_id, uid, status, resolution, created_at, updated_at; the page ordered by
-- updated_at and id, counted by user_id). Messages, images and operator answers are not shown in
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
