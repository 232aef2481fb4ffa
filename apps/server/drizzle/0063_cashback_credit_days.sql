-- No line is booked while this migration runs (issue 14; docs/ledger.md, "Balances"): the trigger
-- below starts keeping the credits and the backfill sums every line booked before, so a line booked in
-- between would be in neither.
LOCK TABLE "ledger_lines" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "cashback_credit_days" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cashback_credit_days_day_idx" ON "cashback_credit_days" USING btree ("day","account_id","amount");--> statement-breakpoint
-- One pass over a statement's lines keeps both tables: the sums by day and kinds (0061), and the
-- cashback credited by rebate journals per account and day that the public statistics rank.
CREATE OR REPLACE FUNCTION ledger_lines_keep_days() RETURNS trigger AS $$
BEGIN
  WITH per_account AS (
    SELECT (j.created_at AT TIME ZONE 'UTC')::date AS day, l.account_id, a.kind AS account_kind,
      j.kind AS journal_kind, sum(l.amount) AS amount, count(*) AS lines
    FROM new_lines l
    JOIN ledger_journals j ON j.id = l.journal_id
      AND j.id BETWEEN (SELECT min(journal_id) FROM new_lines) AND (SELECT max(journal_id) FROM new_lines)
    JOIN ledger_accounts a ON a.id = l.account_id
    GROUP BY 1, 2, 3, 4
  ), credits AS (
    INSERT INTO cashback_credit_days (day, account_id, amount)
      SELECT day, account_id, amount FROM per_account
      WHERE account_kind = 'cashback' AND journal_kind = 'rebate' AND amount <> 0
  )
  INSERT INTO ledger_day_sums (day, account_kind, journal_kind, amount, lines)
    SELECT day, account_kind, journal_kind, sum(amount), sum(lines) FROM per_account GROUP BY 1, 2, 3;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
INSERT INTO cashback_credit_days (day, account_id, amount)
  SELECT (j.created_at AT TIME ZONE 'UTC')::date, l.account_id, sum(l.amount)
  FROM ledger_lines l
  JOIN ledger_journals j ON j.id = l.journal_id AND j.kind = 'rebate'
  JOIN ledger_accounts a ON a.id = l.account_id AND a.kind = 'cashback'
  GROUP BY 1, 2
  HAVING sum(l.amount) <> 0;
--> statement-breakpoint
-- The first refresh of the statistics may come before autovacuum does: plan it on the backfilled rows.
ANALYZE "cashback_credit_days";
