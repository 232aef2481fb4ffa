-- What each friend's cashback has earned their inviter in invite bonuses (issue 14; docs/decisions.md,
-- "myFriends from kept bonus totals"): myFriends reads a page of friends' figures and the inviter's
-- total here, not a busy inviter's ten thousand event rewards. Kept by a statement trigger over the
-- rewards each statement books; event_rewards is append-only (event_rewards_append_only), so the
-- trigger only adds. ledger:check proves the figures equal the rewards' sums.
CREATE TABLE "invite_bonus_totals" (
	"inviter_id" bigint NOT NULL,
	"friend_id" bigint NOT NULL,
	"amount_micro" numeric NOT NULL,
	CONSTRAINT "invite_bonus_totals_inviter_id_friend_id_pk" PRIMARY KEY("inviter_id","friend_id")
);--> statement-breakpoint
-- No reward may be booked between the sums below and the trigger: a settlement committing in that
-- window (another instance, running while this one migrates) would be in neither. The lock waits for
-- settlements in flight and holds new ones until the migration commits.
LOCK TABLE event_rewards IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO invite_bonus_totals (inviter_id, friend_id, amount_micro)
  SELECT user_id, source_user_id, sum(amount_micro) FROM event_rewards
  WHERE kind = 'inviteBonus' AND source_user_id IS NOT NULL
  GROUP BY user_id, source_user_id;--> statement-breakpoint
-- Rows are added in key order, so two settlements that pay the same inviters lock their rows in the
-- same order and cannot deadlock.
CREATE OR REPLACE FUNCTION event_rewards_bonus_totals_after_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO invite_bonus_totals AS t (inviter_id, friend_id, amount_micro)
    SELECT user_id, source_user_id, sum(amount_micro) FROM new_rewards
    WHERE kind = 'inviteBonus' AND source_user_id IS NOT NULL
    GROUP BY user_id, source_user_id
    ORDER BY user_id, source_user_id
  ON CONFLICT (inviter_id, friend_id) DO UPDATE SET amount_micro = t.amount_micro + excluded.amount_micro;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER event_rewards_bonus_totals AFTER INSERT ON event_rewards
  REFERENCING NEW TABLE AS new_rewards
  FOR EACH STATEMENT EXECUTE FUNCTION event_rewards_bonus_totals_after_insert();
