CREATE TABLE "ledger_day_sums" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"account_kind" text NOT NULL,
	"journal_kind" text NOT NULL,
	"amount" numeric NOT NULL,
	"lines" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_day_sums_kind_day_idx" ON "ledger_day_sums" USING btree ("account_kind","journal_kind","day");--> statement-breakpoint
-- The ledger's lines by day and kinds (issue 14; docs/ledger.md, "Balances"): each statement that
-- inserts lines adds its own sums, one row per (UTC day of the journal, account kind, journal kind).
-- Insert-only: no row is shared by two postings, so none waits for another here. The journals a
-- statement's lines name are written before them or by the same statement (postJournals), so they are
-- visible here. The range of their ids keeps the planner off a merge join that walks the journals'
-- whole primary key (bench:ledger-days: a day's posting 1.29x slower at 885,000 journals without it).
CREATE OR REPLACE FUNCTION ledger_lines_keep_days() RETURNS trigger AS $$
BEGIN
  INSERT INTO ledger_day_sums (day, account_kind, journal_kind, amount, lines)
    SELECT (j.created_at AT TIME ZONE 'UTC')::date, a.kind, j.kind, sum(l.amount), count(*)
    FROM new_lines l
    JOIN ledger_journals j ON j.id = l.journal_id
      AND j.id BETWEEN (SELECT min(journal_id) FROM new_lines) AND (SELECT max(journal_id) FROM new_lines)
    JOIN ledger_accounts a ON a.id = l.account_id
    GROUP BY 1, 2, 3;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- The trigger first: creating it locks ledger_lines against inserts until this migration commits, so
-- the sums below miss no line booked meanwhile (the window 0033/0034's backfills had).
CREATE TRIGGER ledger_lines_keep_days AFTER INSERT ON ledger_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_keep_days();--> statement-breakpoint
INSERT INTO ledger_day_sums (day, account_kind, journal_kind, amount, lines)
  SELECT (j.created_at AT TIME ZONE 'UTC')::date, a.kind, j.kind, sum(l.amount), count(*)
  FROM ledger_lines l
  JOIN ledger_journals j ON j.id = l.journal_id
  JOIN ledger_accounts a ON a.id = l.account_id
  GROUP BY 1, 2, 3;
