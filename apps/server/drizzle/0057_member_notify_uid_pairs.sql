-- Bindings (0056's function, unchanged in whom it names): the UIDs a statement touched are read as
-- pairs in one pass over its rows. 0055 and 0056 read `plat_id` and `uid` in two scans of the
-- transition table and zipped them, which paired them right only while both scans returned the rows
-- in the same order (they do today; nothing promises it). docs/decisions.md, "Review of 0055 and 0056".
CREATE OR REPLACE FUNCTION exchange_bindings_notify_members() RETURNS trigger AS $$
DECLARE
  plat_ids integer[];
  uids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL
      UNION SELECT u.inviter_id FROM (SELECT DISTINCT user_id FROM new_rows) n JOIN users u ON u.id = n.user_id
      UNION SELECT i.inviter_id FROM (SELECT DISTINCT user_id FROM new_rows) n
        JOIN invitations i ON i.friend_id = n.user_id));
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids FROM new_rows;
    PERFORM elex_notify_uids(plat_ids, uids);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL
      UNION SELECT k.inviter_id FROM old_rows o
        JOIN invite_bonus_binding_totals k ON k.binding_id = o.id
      UNION SELECT u.inviter_id FROM (
          SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE (n.user_id, n.unbound_at IS NULL) IS DISTINCT FROM (o.user_id, o.unbound_at IS NULL)
          UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE (n.user_id, n.unbound_at IS NULL) IS DISTINCT FROM (o.user_id, o.unbound_at IS NULL)
        ) c JOIN users u ON u.id = c.user_id
      UNION SELECT i.inviter_id FROM (
          SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE (n.user_id, n.unbound_at IS NULL) IS DISTINCT FROM (o.user_id, o.unbound_at IS NULL)
          UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE (n.user_id, n.unbound_at IS NULL) IS DISTINCT FROM (o.user_id, o.unbound_at IS NULL)
        ) c JOIN invitations i ON i.friend_id = c.user_id));
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids
      FROM (SELECT plat_id, uid FROM old_rows UNION ALL SELECT plat_id, uid FROM new_rows) t;
    PERFORM elex_notify_uids(plat_ids, uids);
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT b.user_id FROM old_rows o
        JOIN exchange_bindings b ON b.plat_id = o.plat_id AND b.uid = o.uid AND b.unbound_at IS NULL
      UNION SELECT k.inviter_id FROM old_rows o
        JOIN invite_bonus_binding_totals k ON k.binding_id = o.id
      UNION SELECT u.inviter_id FROM (SELECT DISTINCT user_id FROM old_rows) o JOIN users u ON u.id = o.user_id
      UNION SELECT i.inviter_id FROM (SELECT DISTINCT user_id FROM old_rows) o
        JOIN invitations i ON i.friend_id = o.user_id));
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids FROM old_rows;
    PERFORM elex_notify_uids(plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
