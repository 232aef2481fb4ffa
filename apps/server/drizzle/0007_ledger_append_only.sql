-- The cashback ledger (docs/ledger.md) is double-entry and append-only. Drizzle cannot express
-- triggers, hence this custom migration.
--
-- 1. Accounts, journals, lines and event rewards are never changed or removed: a correction is a new
--    journal.
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_append_only BEFORE UPDATE OR DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_journals_no_truncate BEFORE TRUNCATE ON ledger_journals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE OR DELETE ON ledger_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_lines_no_truncate BEFORE TRUNCATE ON ledger_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER event_rewards_append_only BEFORE UPDATE OR DELETE ON event_rewards
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER event_rewards_no_truncate BEFORE TRUNCATE ON event_rewards
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
-- 2. Every journal balances: at least two lines summing to zero. Checked at commit (DEFERRABLE
--    INITIALLY DEFERRED), so a journal and its lines are written by separate statements of one
--    transaction; a transaction that leaves a journal unbalanced fails to commit.
CREATE OR REPLACE FUNCTION ledger_assert_balanced(journal bigint) RETURNS void AS $$
DECLARE
  total numeric;
  line_count integer;
BEGIN
  SELECT coalesce(sum(amount), 0), count(*) INTO total, line_count FROM ledger_lines WHERE journal_id = journal;
  IF line_count < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'ledger journal % is unbalanced: % lines summing to %', journal, line_count, total
      USING ERRCODE = 'check_violation';
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_lines_check_balanced() RETURNS trigger AS $$
BEGIN
  PERFORM ledger_assert_balanced(NEW.journal_id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_journals_check_balanced() RETURNS trigger AS $$
BEGIN
  PERFORM ledger_assert_balanced(NEW.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_lines_balanced AFTER INSERT ON ledger_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_lines_check_balanced();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_journals_balanced AFTER INSERT ON ledger_journals
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journals_check_balanced();
--> statement-breakpoint
-- 3. A rebate record is settled once: only a pending record may change, and only its outcome
--    (status, reason, rate, amount, settled_at); the exchange's figures never change. No record is
--    removed (spec: records are kept 5 years; a retention job would come with its own migration).
CREATE OR REPLACE FUNCTION rebates_guard_settlement() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'rebates: % refused', TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' THEN
    RAISE EXCEPTION 'rebate % is already %', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
  END IF;
  IF (NEW.id, NEW.plat_id, NEW.uid, NEW.period_start, NEW.period_end, NEW.trading_volume_micro, NEW.fee_micro,
      NEW.commission_micro, NEW.source, NEW.source_label, NEW.created_at)
     IS DISTINCT FROM
     (OLD.id, OLD.plat_id, OLD.uid, OLD.period_start, OLD.period_end, OLD.trading_volume_micro, OLD.fee_micro,
      OLD.commission_micro, OLD.source, OLD.source_label, OLD.created_at) THEN
    RAISE EXCEPTION 'the reported figures of rebate % cannot change', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER rebates_settle_once BEFORE UPDATE OR DELETE ON rebates
  FOR EACH ROW EXECUTE FUNCTION rebates_guard_settlement();
--> statement-breakpoint
CREATE TRIGGER rebates_no_truncate BEFORE TRUNCATE ON rebates
  FOR EACH STATEMENT EXECUTE FUNCTION rebates_guard_settlement();
