-- withdrawable kept per process (issue 14; docs/decisions.md, "withdrawable kept like myInfo, until
-- its next hold end"): what read-models/withdrawable-summary.ts reads must notify `elex_member_changed`
-- for every member whose answer it changes. Already told: the balances (0028's ledger_lines trigger:
-- a UID's cashback to its live holder, rewards to their member, a withdrawal's hold to its member; a
-- kept balance moves only by that trigger), the member's row and its withdrawal lock (0051), the
-- member's own bindings and the live holder of each UID (0028). Added here: what decides the invite
-- bonuses held for an inviter, who is not the member whose row changes, and the disputes that freeze
-- a UID. Statement triggers with transition tables, as 0028's and 0051's.
--
-- Disputes (support requests of kind 'uidBoundByOther', not the other kinds): one opened, decided,
-- closed, moved to another UID or deleted names every member who ever bound the UID (its live holder's
-- UID shows frozen), every inviter paid bonuses by a binding of the UID (held while it is disputed,
-- and for the hold's length after a decision), and every member of a bonus booked while it was open
-- (`event_rewards.dispute_ids`, by its GIN index).
CREATE OR REPLACE FUNCTION elex_notify_dispute_members(ids bigint[], plat_ids integer[], uids text[])
RETURNS void AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(
    WITH d AS (SELECT DISTINCT plat_id, uid FROM unnest(plat_ids, uids) AS t(plat_id, uid)),
    b AS (SELECT b.id, b.user_id FROM d JOIN exchange_bindings b ON b.plat_id = d.plat_id AND b.uid = d.uid)
    SELECT user_id FROM b
    UNION SELECT k.inviter_id FROM b JOIN invite_bonus_binding_totals k ON k.binding_id = b.id
    UNION SELECT e.user_id FROM event_rewards e WHERE e.dispute_ids IS NOT NULL AND e.dispute_ids && ids));
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE OR REPLACE FUNCTION support_requests_notify_members() RETURNS trigger AS $$
DECLARE
  ids bigint[];
  plat_ids integer[];
  uids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id), array_agg(plat_id), array_agg(uid) INTO ids, plat_ids, uids
      FROM new_rows WHERE kind = 'uidBoundByOther';
  ELSIF TG_OP = 'UPDATE' THEN
    -- Both sides of a changed dispute: what it froze before and what it freezes now. Not a change of
    -- what the answer never reads (the text's updated_at, the resolution, the operator).
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
    SELECT array_agg(id), array_agg(plat_id), array_agg(uid) INTO ids, plat_ids, uids
      FROM old_rows WHERE kind = 'uidBoundByOther';
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM elex_notify_dispute_members(ids, plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER support_requests_notify_inserted AFTER INSERT ON support_requests
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION support_requests_notify_members();--> statement-breakpoint
CREATE TRIGGER support_requests_notify_updated AFTER UPDATE ON support_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION support_requests_notify_members();--> statement-breakpoint
CREATE TRIGGER support_requests_notify_deleted AFTER DELETE ON support_requests
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION support_requests_notify_members();--> statement-breakpoint
CREATE TRIGGER support_requests_notify_truncated AFTER TRUNCATE ON support_requests
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Bindings: as 0028, and also the inviters a changed or deleted binding paid bonuses (its ownership
-- confirmation frees them, its end decides whether a dispute still holds them). A new binding has paid
-- nobody yet.
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
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL
      UNION SELECT k.inviter_id FROM old_rows o
        JOIN invite_bonus_binding_totals k ON k.binding_id = o.id));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT b.user_id FROM old_rows o
        JOIN exchange_bindings b ON b.plat_id = o.plat_id AND b.uid = o.uid AND b.unbound_at IS NULL
      UNION SELECT k.inviter_id FROM old_rows o
        JOIN invite_bonus_binding_totals k ON k.binding_id = o.id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- The sums of bonuses each binding paid each inviter, and the end of the binding's hold: their
-- inviter. A settlement's bonuses also post to the inviter's rewards (0028 names them); this holds for
-- a rebuild of the sums (`ledger:rebuild`) or a hand-made change too.
CREATE OR REPLACE FUNCTION invite_bonus_binding_totals_notify_members() RETURNS trigger AS $$
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
CREATE TRIGGER invite_bonus_binding_totals_notify_inserted AFTER INSERT ON invite_bonus_binding_totals
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invite_bonus_binding_totals_notify_members();--> statement-breakpoint
CREATE TRIGGER invite_bonus_binding_totals_notify_updated AFTER UPDATE ON invite_bonus_binding_totals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invite_bonus_binding_totals_notify_members();--> statement-breakpoint
CREATE TRIGGER invite_bonus_binding_totals_notify_deleted AFTER DELETE ON invite_bonus_binding_totals
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION invite_bonus_binding_totals_notify_members();--> statement-breakpoint
CREATE TRIGGER invite_bonus_binding_totals_notify_truncated AFTER TRUNCATE ON invite_bonus_binding_totals
  FOR EACH STATEMENT EXECUTE FUNCTION elex_notify_all_members();--> statement-breakpoint
-- Bonuses booked while a dispute was open on their UID (`dispute_ids`) are held by it, whatever their
-- binding: their member. event_rewards is append-only (0007 refuses UPDATE, DELETE and TRUNCATE).
CREATE OR REPLACE FUNCTION event_rewards_notify_disputed() RETURNS trigger AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(SELECT user_id FROM new_rows WHERE dispute_ids IS NOT NULL));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER event_rewards_notify_disputed AFTER INSERT ON event_rewards
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_rewards_notify_disputed();
