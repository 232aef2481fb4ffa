import * as z from 'zod';
import { pageNumberSchema, pageSizeSchema } from './paging.js';

/**
 * Invites (spec sections 3 and 7): the member's invite code and registration link, the reward tiers
 * and the friends who registered with the code. Reward values come from the server's config.
 */

/** What inviting pays (server config; the spec leaves the values open). */
export const InviteRewardsSchema = z.object({
  /** Points the friend gets for registering with the code. */
  friendSignupPoints: z.number().int(),
  /** Points the inviter gets per friend who registers. */
  inviterPointsPerFriend: z.number().int(),
  /** The inviter's bonus: this percentage of the friend's cashback, in USDT (INVITE_BONUS_PERCENT). */
  bonusPercent: z.number().int(),
});
export type InviteRewards = z.infer<typeof InviteRewardsSchema>;

// /elex/user/getMyInviteCode {}
export const MyInviteCodeSchema = z.object({ inviteCode: z.string() });

// /elex/user/getInviteLink {}: `${APP_URL}/register?inviteCode=CODE` and the reward tiers.
export const InviteLinkSchema = z.object({
  inviteCode: z.string(),
  link: z.string(),
  rewards: InviteRewardsSchema,
});
export type InviteLink = z.infer<typeof InviteLinkSchema>;

// /elex/user/myFriends {page, pageSize}: friends who registered with the member's code, newest first.
export const MyFriendsRequestSchema = z.object({
  page: pageNumberSchema,
  pageSize: pageSizeSchema(),
});
export type MyFriendsRequest = z.input<typeof MyFriendsRequestSchema>;

export const FriendSchema = z.object({
  /** The friend's e-mail masked ('al***@example.com'); null once the friend deleted the account. */
  email: z.string().nullable(),
  joinedAt: z.string(),
  /** Whether the friend has an exchange UID bound now. */
  hasBoundUid: z.boolean(),
  /** Points this friend earned the member. */
  pointsEarned: z.number().int(),
  /** Invite bonus (USDT) this friend's cashback earned the member. */
  bonusEarned: z.string(),
});
export type Friend = z.infer<typeof FriendSchema>;

export const MyFriendsSchema = z.object({
  friends: z.array(FriendSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** All friends together: points and USDT bonus they earned the member. */
  totalPoints: z.number().int(),
  totalBonus: z.string(),
});
export type MyFriends = z.infer<typeof MyFriendsSchema>;

/** Defaults of the server's INVITE_SIGNUP_POINTS and INVITE_FRIEND_POINTS (the spec leaves them open). */
export const INVITE_REWARD_DEFAULTS = { friendSignupPoints: 50, inviterPointsPerFriend: 100 } as const;
