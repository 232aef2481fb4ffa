-- How many event rewards each member has (issue 14; docs/decisions.md, "myFriends from kept bonus
-- totals"): seeRewardData counted a busy inviter's ten thousand rewards on every page. Kept by a
-- statement trigger over the rewards each statement books; event_rewards is append-only, so the
-- trigger only adds. ledger:check proves the counts.
CREATE TABLE "event_reward_counts" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"rewards" bigint NOT NULL
);--> statement-breakpoint
-- No reward may be booked between the sums below and the trigger: a settlement committing in that
-- window (another instance, running while this one migrates) would be in neither. The lock waits for
-- settlements in flight and holds new ones until the migration commits.
LOCK TABLE event_rewards IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO event_reward_counts (user_id, rewards)
  SELECT user_id, count(*) FROM event_rewards GROUP BY user_id;--> statement-breakpoint
-- In key order, so two settlements paying the same members cannot deadlock.
CREATE OR REPLACE FUNCTION event_rewards_counts_after_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO event_reward_counts AS c (user_id, rewards)
    SELECT user_id, count(*) FROM new_rewards GROUP BY user_id ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE SET rewards = c.rewards + excluded.rewards;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER event_rewards_counts AFTER INSERT ON event_rewards
  REFERENCING NEW TABLE AS new_rewards
  FOR EACH STATEMENT EXECUTE FUNCTION event_rewards_counts_after_insert();
