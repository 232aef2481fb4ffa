import {
  DECIMALS,
  fromScaled,
  type InviteLink,
  type InviteRewards,
  type MyFriends,
  PATHS,
} from '@elex/contract';
import { answerKind, keptForMember, keptPageForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { selectFriendList } from '../../read-models/friend-list.js';
import { inviteCodeOf } from '../auth/auth.service.js';
import { maskEmail } from '../cashback/mask-email.js';
import { INVITE_POINTS_REASONS } from './invite-rewards.js';

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

/** The reward tiers as configured (the invite page shows them). */
function inviteRewards(deps: Pick<AppDeps, 'config'>): InviteRewards {
  return {
    friendSignupPoints: deps.config.invitePoints.friendSignup,
    inviterPointsPerFriend: deps.config.invitePoints.perFriend,
    bonusPercent: deps.config.inviteBonusPercent,
  };
}

/** The member's invite code, kept per process by member (db/member-answers.ts). */
const INVITE_CODES = answerKind<string>('inviteCode', 20_000);

/**
 * The member's invite code, read once and kept in this process until the member's row changes: the
 * users trigger (migrations 0051, 0056) notifies on the invite code and on a deletion or suspension.
 * The code itself is given at registration and never changes; a member who is gone is refused as a
 * lost session when read.
 */
function keptInviteCode(deps: AppDeps, userId: number): Promise<string> {
  return keptForMember(deps.memberAnswers, INVITE_CODES, userId, () => inviteCodeOf(deps.db, userId));
}

/** /elex/user/getMyInviteCode */
export async function myInviteCode(deps: AppDeps, userId: number): Promise<{ inviteCode: string }> {
  return { inviteCode: await keptInviteCode(deps, userId) };
}

/** /elex/user/getInviteLink: the registration link on APP_URL with the code, and the reward tiers. */
export async function inviteLink(deps: AppDeps, userId: number): Promise<InviteLink> {
  const inviteCode = await keptInviteCode(deps, userId);
  const link = `${deps.config.appUrl}${PATHS.register}?${new URLSearchParams({ inviteCode })}`;
  return { inviteCode, link, rewards: inviteRewards(deps) };
}

/** A friend is ~150 bytes as JSON; 20,000 pages and 32 MiB at most per process. */
const FRIEND_PAGES = answerKind<MyFriends>('myFriends', 20_000, {
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (value) => 200 + value.friends.length * 150,
});

type FriendsQuery = { page: number; pageSize: number };

/**
 * /elex/user/myFriends: the friends who registered with the member's code, newest first, each with
 * what they earned the member: the invite points and the USDT bonus on their cashback. Pages 1 to 3
 * are kept in this process by member and request until the member changes: a friend invited, a
 * friend's e-mail changed or account deleted, a friend's binding added, ended or removed, invite
 * points and bonuses booked notify the inviter (migrations 0051 and 0056_member_notify_friends).
 * Nothing in it depends on the clock or on configuration. Kept values are frozen.
 */
export async function myFriends(deps: AppDeps, userId: number, query: FriendsQuery): Promise<MyFriends> {
  return keptPageForMember(
    deps.memberAnswers,
    FRIEND_PAGES,
    userId,
    { page: query.page, pageSize: query.pageSize, filter: [] },
    () => readMyFriends(deps, userId, query),
  );
}

async function readMyFriends(deps: AppDeps, userId: number, query: FriendsQuery): Promise<MyFriends> {
  const list = await selectFriendList(
    deps.db,
    userId,
    { offset: (query.page - 1) * query.pageSize, limit: query.pageSize },
    INVITE_POINTS_REASONS.inviter,
  );
  const friends = list.rows.map((row) =>
    Object.freeze({
      email: row.email ? maskEmail(row.email) : null,
      joinedAt: row.joinedAt.toISOString(),
      hasBoundUid: row.hasBoundUid,
      pointsEarned: row.pointsEarned,
      bonusEarned: usdt(row.bonusEarnedMicro),
    }),
  );
  return Object.freeze({
    friends: Object.freeze(friends),
    total: list.total,
    page: query.page,
    pageSize: query.pageSize,
    totalPoints: list.totalPoints,
    totalBonus: usdt(list.totalBonusMicro),
  }) as MyFriends;
}
