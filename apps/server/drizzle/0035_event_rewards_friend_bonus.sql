-- A dispute's UID panel names the invite bonuses the holder's cashback paid the holder's inviter since the
-- binding (docs/support.md): found by the friend who earned them, not by scanning every reward.
CREATE INDEX "event_rewards_friend_bonus_idx" ON "event_rewards" USING btree ("source_user_id","created_at") WHERE "event_rewards"."kind" = 'inviteBonus';
