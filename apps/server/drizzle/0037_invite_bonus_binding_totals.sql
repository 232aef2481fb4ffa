-- What each friend's binding has paid each inviter in invite bonuses, and the part booked inside its
-- ownership hold (issue 14; docs/decisions.md, "Held invite bonuses from kept sums per binding"): the
-- withdrawable summary summed an inviter's held bonuses row by row on every call, a few milliseconds
-- for an inviter with ten thousand of them. Kept by a statement trigger over the rewards each
-- statement books; event_rewards is append-only (event_rewards_append_only), so the trigger only
-- adds. ledger:check proves the figures equal the rewards' sums. The two indexes that served the
-- row-by-row sums go: every settlement wrote them.
CREATE TABLE "invite_bonus_binding_totals" (
	"binding_id" bigint NOT NULL,
	"inviter_id" bigint NOT NULL,
	"amount_micro" numeric NOT NULL,
	"held_micro" numeric NOT NULL,
	"hold_ends_at" timestamp with time zone,
	CONSTRAINT "invite_bonus_binding_totals_binding_id_inviter_id_pk" PRIMARY KEY("binding_id","inviter_id")
);
--> statement-breakpoint
CREATE INDEX "invite_bonus_binding_totals_held_idx" ON "invite_bonus_binding_totals" USING btree ("inviter_id","hold_ends_at");--> statement-breakpoint
-- No reward may be booked between the sums below and the trigger: a settlement committing in that
-- window (another instance, running while this one migrates) would be in neither. The lock waits for
-- settlements in flight and holds new ones until the migration commits.
LOCK TABLE event_rewards IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO invite_bonus_binding_totals (binding_id, inviter_id, amount_micro, held_micro, hold_ends_at)
  SELECT binding_id, user_id, sum(amount_micro),
    coalesce(sum(amount_micro) FILTER (WHERE hold_ends_at IS NOT NULL), 0), max(hold_ends_at)
  FROM event_rewards
  WHERE kind = 'inviteBonus' AND binding_id IS NOT NULL
  GROUP BY binding_id, user_id;--> statement-breakpoint
-- Rows are added in key order. A binding belongs to one exchange, and the settlements of one exchange
-- run one at a time (lockExchangeLedger), so two statements never add to the same binding's rows at
-- once; settlements of two exchanges meet first on their inviters' ledger accounts. Without those locks
-- two settlements paying one inviter from two bindings could deadlock here (this trigger fires before
-- the per-inviter ones, by name).
-- A binding's bonuses all carry its one hold end (bound_at plus the hold); were the hold's length ever
-- changed while bindings are inside it, the row would keep the latest end and hold more, never less.
CREATE OR REPLACE FUNCTION event_rewards_binding_totals_after_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO invite_bonus_binding_totals AS t (binding_id, inviter_id, amount_micro, held_micro, hold_ends_at)
    SELECT binding_id, user_id, sum(amount_micro),
      coalesce(sum(amount_micro) FILTER (WHERE hold_ends_at IS NOT NULL), 0), max(hold_ends_at)
    FROM new_rewards
    WHERE kind = 'inviteBonus' AND binding_id IS NOT NULL
    GROUP BY binding_id, user_id
    ORDER BY binding_id, user_id
  ON CONFLICT (binding_id, inviter_id) DO UPDATE SET
    amount_micro = t.amount_micro + excluded.amount_micro,
    held_micro = t.held_micro + excluded.held_micro,
    hold_ends_at = greatest(t.hold_ends_at, excluded.hold_ends_at);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER event_rewards_binding_totals AFTER INSERT ON event_rewards
  REFERENCING NEW TABLE AS new_rewards
  FOR EACH STATEMENT EXECUTE FUNCTION event_rewards_binding_totals_after_insert();--> statement-breakpoint
DROP INDEX "event_rewards_binding_idx";--> statement-breakpoint
DROP INDEX "event_rewards_held_idx";
