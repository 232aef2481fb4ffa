-- Kept answers evicted by UID too (docs/decisions.md, "Kept answers evicted by UID too (migration
-- 0055)"). A trigger that names a UID's holders through `exchange_bindings` names those live when its
-- statement runs, not at its commit: a member who binds the UID in between and reads is named by no
-- notification of the writer. So each such trigger now also sends the `(plat_id, uid)` pairs it
-- touched, on the same channel, and an instance drops every answer that covers one of them (the
-- answers of the member's live bindings at read time, db/member-answers.ts). Which members each
-- trigger names is unchanged.
--
-- A token is `u<plat_id>:<uid>` when the UID is made of letters, digits, '-' and '_' (every UID the
-- contract accepts: EXCHANGE_UID_PATTERN), else `x<plat_id>:<hex of its UTF-8 bytes>` (a ',' cannot
-- split it); neither can be read as a member id (digits) or '*'. A token longer than 900 bytes (a UID
-- no exchange has) is sent as '*': every instance drops everything. Tokens in ascending order,
-- cut into notifications of at most about 7,900 bytes (NOTIFY refuses 8,000), as elex_notify_members
-- does; the same set twice in one transaction is one notification.
CREATE OR REPLACE FUNCTION elex_notify_uids(plat_ids integer[], uids text[]) RETURNS void AS $$
BEGIN
  PERFORM pg_notify('elex_member_changed', string_agg(token, ',' ORDER BY token))
    FROM (SELECT token, (sum(octet_length(token) + 1) OVER (ORDER BY token) - 1) / 7000 AS chunk
          FROM (SELECT DISTINCT CASE WHEN octet_length(spelled) <= 900 THEN spelled ELSE '*' END AS token
                FROM (SELECT CASE WHEN uid ~ '^[A-Za-z0-9_-]+$' THEN 'u' || plat_id || ':' || uid
                             ELSE 'x' || plat_id || ':' || encode(convert_to(uid, 'UTF8'), 'hex') END AS spelled
                      FROM unnest(plat_ids, uids) AS t(plat_id, uid)
                      WHERE plat_id IS NOT NULL AND uid IS NOT NULL) s) d) numbered
    GROUP BY chunk;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Lines (0028): as before, and the cashback accounts' UIDs (an operator's correction holds no
-- exchange's ledger lock).
CREATE OR REPLACE FUNCTION ledger_lines_notify_members() RETURNS trigger AS $$
DECLARE
  members bigint[];
  plat_ids integer[];
  uids text[];
BEGIN
  SELECT array_agg(coalesce(a.user_id, b.user_id, w.user_id)),
         array_agg(a.plat_id) FILTER (WHERE a.kind = 'cashback'),
         array_agg(a.uid) FILTER (WHERE a.kind = 'cashback')
    INTO members, plat_ids, uids
    FROM (SELECT DISTINCT account_id FROM new_lines) touched
    JOIN ledger_accounts a ON a.id = touched.account_id
    LEFT JOIN exchange_bindings b
      ON a.kind = 'cashback' AND b.plat_id = a.plat_id AND b.uid = a.uid AND b.unbound_at IS NULL
    LEFT JOIN withdrawals w ON a.kind = 'hold' AND w.id = a.reference_id
    WHERE a.kind IN ('cashback', 'rewards', 'hold');
  PERFORM elex_notify_members(members);
  IF uids IS NOT NULL THEN
    PERFORM elex_notify_uids(plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Bindings (0052's function): as before, and the UIDs of the rows changed.
CREATE OR REPLACE FUNCTION exchange_bindings_notify_members() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL));
    PERFORM elex_notify_uids(ARRAY(SELECT plat_id FROM new_rows), ARRAY(SELECT uid FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT n.user_id FROM new_rows n
      UNION SELECT b.user_id FROM new_rows n
        JOIN exchange_bindings b ON b.plat_id = n.plat_id AND b.uid = n.uid AND b.unbound_at IS NULL
      UNION SELECT k.inviter_id FROM old_rows o
        JOIN invite_bonus_binding_totals k ON k.binding_id = o.id));
    PERFORM elex_notify_uids(
      ARRAY(SELECT plat_id FROM old_rows UNION ALL SELECT plat_id FROM new_rows),
      ARRAY(SELECT uid FROM old_rows UNION ALL SELECT uid FROM new_rows));
  ELSE
    PERFORM elex_notify_members(ARRAY(
      SELECT o.user_id FROM old_rows o
      UNION SELECT b.user_id FROM old_rows o
        JOIN exchange_bindings b ON b.plat_id = o.plat_id AND b.uid = o.uid AND b.unbound_at IS NULL
      UNION SELECT k.inviter_id FROM old_rows o
        JOIN invite_bonus_binding_totals k ON k.binding_id = o.id));
    PERFORM elex_notify_uids(ARRAY(SELECT plat_id FROM old_rows), ARRAY(SELECT uid FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Disputes (0052): as before, and the disputed UIDs.
CREATE OR REPLACE FUNCTION elex_notify_dispute_members(ids bigint[], plat_ids integer[], uids text[])
RETURNS void AS $$
BEGIN
  PERFORM elex_notify_members(ARRAY(
    WITH d AS (SELECT DISTINCT plat_id, uid FROM unnest(plat_ids, uids) AS t(plat_id, uid)),
    b AS (SELECT b.id, b.user_id FROM d JOIN exchange_bindings b ON b.plat_id = d.plat_id AND b.uid = d.uid)
    SELECT user_id FROM b
    UNION SELECT k.inviter_id FROM b JOIN invite_bonus_binding_totals k ON k.binding_id = b.id
    UNION SELECT e.user_id FROM event_rewards e WHERE e.dispute_ids IS NOT NULL AND e.dispute_ids && ids));
  PERFORM elex_notify_uids(plat_ids, uids);
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- Records (0053): as before, and their UIDs, from one pass over the statement's rows.
CREATE OR REPLACE FUNCTION rebates_notify_members() RETURNS trigger AS $$
DECLARE
  plat_ids integer[];
  uids text[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids
      FROM (SELECT DISTINCT plat_id, uid FROM old_rows) t;
  ELSE
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids
      FROM (SELECT DISTINCT plat_id, uid FROM new_rows) t;
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
-- Roster lines (0053): as before, and their UIDs.
CREATE OR REPLACE FUNCTION referrals_notify_members() RETURNS trigger AS $$
DECLARE
  plat_ids integer[];
  uids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids
      FROM (SELECT plat_id, uid FROM old_rows UNION SELECT plat_id, uid FROM new_rows) t;
  ELSE
    SELECT array_agg(plat_id), array_agg(uid) INTO plat_ids, uids FROM old_rows;
  END IF;
  IF uids IS NOT NULL THEN
    PERFORM elex_notify_members(ARRAY(
      SELECT b.user_id FROM unnest(plat_ids, uids) AS t(plat_id, uid)
        JOIN exchange_bindings b ON b.plat_id = t.plat_id AND b.uid = t.uid AND b.unbound_at IS NULL));
    PERFORM elex_notify_uids(plat_ids, uids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
