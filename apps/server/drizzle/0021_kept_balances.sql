-- Kept balances and statement-level ledger checks (issue 14, docs/ledger.md).
--
-- 1. Each account keeps its balance (the sum of its lines) in `balance`, so a balance is one row read
--    instead of a sum over the ledger. The existing accounts get the sums of their lines now.
ALTER TABLE "ledger_accounts" ADD COLUMN "balance" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" DISABLE TRIGGER "ledger_accounts_append_only";--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance" = s.total
  FROM (SELECT account_id, sum(amount) AS total FROM ledger_lines GROUP BY account_id) s
  WHERE a.id = s.account_id;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ENABLE TRIGGER "ledger_accounts_append_only";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_balance_check" CHECK ("ledger_accounts"."kind" not in ('cashback', 'rewards', 'hold') or "ledger_accounts"."balance" >= 0);--> statement-breakpoint
-- 2. Accounts stay append-only except for their kept balance, and only the lines' trigger may change
--    that (pg_trigger_depth() > 1: the UPDATE runs inside a trigger); a direct UPDATE is refused.
CREATE OR REPLACE FUNCTION ledger_accounts_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1
     AND (NEW.id, NEW.code, NEW.kind, NEW.plat_id, NEW.uid, NEW.user_id, NEW.reference_id, NEW.created_at)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.code, OLD.kind, OLD.plat_id, OLD.uid, OLD.user_id, OLD.reference_id, OLD.created_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
DROP TRIGGER "ledger_accounts_append_only" ON "ledger_accounts";--> statement-breakpoint
CREATE TRIGGER ledger_accounts_append_only BEFORE UPDATE OR DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_guard();--> statement-breakpoint
-- 3. Every journal balances, now checked at the end of each statement over the rows it inserted
--    (transition tables) instead of one deferred trigger call per row at commit: a million-row import
--    paid 3 million trigger calls. Stricter than before: a journal and its lines are written by one
--    statement (postJournals does), and a statement that leaves any journal it touched with fewer
--    than two lines or a non-zero sum fails.
DROP TRIGGER "ledger_lines_balanced" ON "ledger_lines";--> statement-breakpoint
DROP TRIGGER "ledger_journals_balanced" ON "ledger_journals";--> statement-breakpoint
DROP FUNCTION ledger_lines_check_balanced();--> statement-breakpoint
DROP FUNCTION ledger_journals_check_balanced();--> statement-breakpoint
DROP FUNCTION ledger_assert_balanced(bigint);--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_refuse_unbalanced(journal bigint, line_count bigint, total numeric)
RETURNS void AS $$
BEGIN
  RAISE EXCEPTION 'ledger journal % is unbalanced: % lines summing to %', journal, line_count, total
    USING ERRCODE = 'check_violation';
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_journals_check_new() RETURNS trigger AS $$
DECLARE
  bad record;
BEGIN
  SELECT j.id, count(l.id) AS line_count, coalesce(sum(l.amount), 0) AS total INTO bad
    FROM new_journals j LEFT JOIN ledger_lines l ON l.journal_id = j.id
    GROUP BY j.id HAVING count(l.id) < 2 OR coalesce(sum(l.amount), 0) <> 0
    LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_refuse_unbalanced(bad.id, bad.line_count, bad.total);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER ledger_journals_balanced AFTER INSERT ON ledger_journals
  REFERENCING NEW TABLE AS new_journals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_journals_check_new();--> statement-breakpoint
-- 4. The lines: the journals they touch balance, and their accounts' kept balances move by the
--    statement's net amounts, locking those account rows in code order, the order postJournals locks
--    every account of a posting in before it writes (postings touching the same accounts queue, they
--    do not deadlock).
CREATE OR REPLACE FUNCTION ledger_lines_after_insert() RETURNS trigger AS $$
DECLARE
  bad record;
BEGIN
  SELECT t.journal_id AS id, count(l.id) AS line_count, coalesce(sum(l.amount), 0) AS total INTO bad
    FROM (SELECT DISTINCT journal_id FROM new_lines) t JOIN ledger_lines l ON l.journal_id = t.journal_id
    GROUP BY t.journal_id HAVING count(l.id) < 2 OR sum(l.amount) <> 0
    LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_refuse_unbalanced(bad.id, bad.line_count, bad.total);
  END IF;
  PERFORM 1 FROM ledger_accounts WHERE id IN (SELECT account_id FROM new_lines) ORDER BY code COLLATE "C" FOR UPDATE;
  UPDATE ledger_accounts a SET balance = a.balance + d.delta
    FROM (SELECT account_id, sum(amount) AS delta FROM new_lines GROUP BY account_id) d
    WHERE a.id = d.account_id AND d.delta <> 0;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER ledger_lines_balanced AFTER INSERT ON ledger_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_after_insert();
