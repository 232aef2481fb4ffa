-- myFriends and seeRewardData kept per member (issue 14; docs/decisions.md, "myFriends and
-- seeRewardData kept per member"). What their pages show, table by table, and who must hear of it:
-- myFriends (the inviter's page): `invitations` (the inviter's friends, joined), `users` (a friend's
-- e-mail, hidden once deleted), `exchange_bindings` (whether a friend holds a live UID),
-- `points_entries` (the invite points, 0051 names the inviter; 0002 refuses the rest) and
-- `invite_bonus_totals` (each friend's bonus and their sum). seeRewardData (the member's page):
-- `event_rewards` (every column shown; 0007 refuses UPDATE, DELETE, TRUNCATE), `event_reward_counts`
-- (the total) and `users` (the source friend's e-mail). Neither reads the clock or configuration.
-- A friend's inviter is named through the friend's own row (users.inviter_id, which the bonuses
-- follow) and `invitations` (which the list follows): both written with the friend's registration,
-- before any change of the friend can run, so no statement names them before they are there.

-- Members: as 0051, and when a member's e-mail or deletion changes, or the row goes, their inviter
-- (both lists show the friend's masked e-mail).
CREATE OR REPLACE FUNCTION users_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (n.email, n.user_code, n.invite_code, n.marketing_consent, n.withdrawal_locked_until,
               n.created_at, n.deleted_at, n.suspended_at)
          IS DISTINCT FROM (o.email, o.user_code, o.invite_code, o.marketing_consent,
               o.withdrawal_locked_until, o.created_at, o.deleted_at, o.suspended_at)
      UNION SELECT unnest(ARRAY[o.inviter_id, n.inviter_id, i.inviter_id])
        FROM old_rows o JOIN new_rows n ON n.id = o.id LEFT JOIN invitations i ON i.friend_id = n.id
        WHERE (n.email, n.deleted_at) IS DISTINCT FROM (o.email, o.deleted_at)));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT id FROM old_rows
      UNION SELECT inviter_id FROM old_rows
      UNION SELECT i.inviter_id FROM old_rows o JOIN invitations i ON i.friend_id = o.id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Invitations: the inviter of each friend added, moved or removed.
CREATE OR REPLACE FUNCTION invitations_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(SELECT inviter_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(SELECT inviter_id FROM old_rows UNION SELECT inviter_id FROM new_rows));
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT inviter_id FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER invitations_notify_inserted AFTER INSERT ON invitations
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invitations_notify_members();--> statement-breakpoint
CREATE TRIGGER invitations_notify_updated AFTER UPDATE ON invitations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invitations_notify_members();--> statement-breakpoint
CREATE TRIGGER invitations_notify_deleted AFTER DELETE ON invitations
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invitations_notify_members();--> statement-breakpoint
CREATE TRIGGER invitations_notify_truncated AFTER TRUNCATE ON invitations
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Bindings: as 0052 and 0055 (the UIDs of the rows changed), and the inviter of the binding's member when whether it is live may have
-- changed (a binding added or removed, ended or resumed, or moved to another member): the friend's
-- "bound" mark. Not the address or confirmation changes, which the inviter's list does not show.
CREATE OR REPLACE FUNCTION exchange_bindings_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL
      UNION SELECT u.inviter_id FROM (SELECT DISTINCT user_id FROM new_rows) n JOIN users u ON u.id = n.user_id
      UNION SELECT i.inviter_id FROM (SELECT DISTINCT user_id FROM new_rows) n
        JOIN invitations i ON i.friend_id = n.user_id));
    PERFORM elex_notify_uids(ARRAY(SELECT plat_id FROM new_rows), ARRAY(SELECT uid FROM new_rows));
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
    PERFORM elex_notify_uids(
      ARRAY(SELECT plat_id FROM old_rows UNION ALL SELECT plat_id FROM new_rows),
      ARRAY(SELECT uid FROM old_rows UNION ALL SELECT uid FROM new_rows));
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
    PERFORM elex_notify_uids(ARRAY(SELECT plat_id FROM old_rows), ARRAY(SELECT uid FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Event rewards: every reward booked names its member (0052 named only those booked under a dispute;
-- this one covers them, so it goes). Append-only: 0007 refuses the rest.
DROP TRIGGER event_rewards_notify_disputed ON event_rewards;--> statement-breakpoint
DROP FUNCTION event_rewards_notify_disputed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_rewards_notify_members() RETURNS trigger AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(SELECT user_id FROM new_rows));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER event_rewards_notify_inserted AFTER INSERT ON event_rewards
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_rewards_notify_members();--> statement-breakpoint
-- The kept figures the two lists read (each friend's bonus, a member's count of rewards). The
-- rewards' own trigger above already names whoever a settlement's rows add to; these name the member
-- of a hand-made change (`kept:rebuild` sends '*' at its commit itself).
CREATE OR REPLACE FUNCTION invite_bonus_totals_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(SELECT inviter_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(SELECT inviter_id FROM old_rows UNION SELECT inviter_id FROM new_rows));
  ELSE
    PERFORM elex_notify_members(ARRAY(SELECT inviter_id FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER invite_bonus_totals_notify_inserted AFTER INSERT ON invite_bonus_totals
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invite_bonus_totals_notify_members();--> statement-breakpoint
CREATE TRIGGER invite_bonus_totals_notify_updated AFTER UPDATE ON invite_bonus_totals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invite_bonus_totals_notify_members();--> statement-breakpoint
CREATE TRIGGER invite_bonus_totals_notify_deleted AFTER DELETE ON invite_bonus_totals
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invite_bonus_totals_notify_members();--> statement-breakpoint
CREATE TRIGGER invite_bonus_totals_notify_truncated AFTER TRUNCATE ON invite_bonus_totals
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_reward_counts_notify_members() RETURNS trigger AS $$
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
CREATE TRIGGER event_reward_counts_notify_inserted AFTER INSERT ON event_reward_counts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_reward_counts_notify_members();--> statement-breakpoint
CREATE TRIGGER event_reward_counts_notify_updated AFTER UPDATE ON event_reward_counts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_reward_counts_notify_members();--> statement-breakpoint
CREATE TRIGGER event_reward_counts_notify_deleted AFTER DELETE ON event_reward_counts
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_reward_counts_notify_members();--> statement-breakpoint
CREATE TRIGGER event_reward_counts_notify_truncated AFTER TRUNCATE ON event_reward_counts
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();
