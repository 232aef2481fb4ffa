import {
  DECIMALS,
  fromScaled,
  type InviteLink,
  type InviteRewards,
  type MyFriends,
  PATHS,
} from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { inviteCodeOf, memberContact } from '../auth/auth.service.js';
import { hasLiveBinding } from '../bindings/bindings.service.js';
import { inviteBonusesByFriend, inviteBonusTotal } from '../cashback/cashback.service.js';
import { maskEmail } from '../cashback/mask-email.js';
import { pointsByReference, pointsForReason } from '../points/points.service.js';
import { INVITE_POINTS_REASONS } from './invite-rewards.js';
import { selectInvitationPage } from './invites.repository.js';

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

/** The reward tiers as configured (the invite page shows them). */
function inviteRewards(deps: Pick<AppDeps, 'config'>): InviteRewards {
  return {
    friendSignupPoints: deps.config.invitePoints.friendSignup,
    inviterPointsPerFriend: deps.config.invitePoints.perFriend,
    bonusPercent: deps.config.inviteBonusPercent,
  };
}

/** /elex/user/getMyInviteCode */
export async function myInviteCode(deps: AppDeps, userId: number): Promise<{ inviteCode: string }> {
  return { inviteCode: await inviteCodeOf(deps.db, userId) };
}

/** /elex/user/getInviteLink: the registration link on APP_URL with the code, and the reward tiers. */
export async function inviteLink(deps: AppDeps, userId: number): Promise<InviteLink> {
  const inviteCode = await inviteCodeOf(deps.db, userId);
  const link = `${deps.config.appUrl}${PATHS.register}?${new URLSearchParams({ inviteCode })}`;
  return { inviteCode, link, rewards: inviteRewards(deps) };
}

/**
 * /elex/user/myFriends: the friends who registered with the member's code, newest first, each with
 * what they earned the member: the invite points and the USDT bonus on their cashback.
 */
export async function myFriends(
  deps: AppDeps,
  userId: number,
  query: { page: number; pageSize: number },
): Promise<MyFriends> {
  const { rows, total } = await selectInvitationPage(deps.db, userId, {
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  const friendIds = rows.map((row) => row.friendId);
  const [points, bonuses, totalPoints, totalBonus] = await Promise.all([
    pointsByReference(deps.db, userId, INVITE_POINTS_REASONS.inviter, friendIds.map(String)),
    inviteBonusesByFriend(deps.db, userId, friendIds),
    pointsForReason(deps.db, userId, INVITE_POINTS_REASONS.inviter),
    inviteBonusTotal(deps.db, userId),
  ]);
  const friends = await Promise.all(
    rows.map(async (row) => {
      const [contact, hasBoundUid] = await Promise.all([
        memberContact(deps.db, row.friendId),
        hasLiveBinding(deps.db, row.friendId),
      ]);
      return {
        email: contact ? maskEmail(contact.email) : null,
        joinedAt: row.createdAt.toISOString(),
        hasBoundUid,
        pointsEarned: points.get(String(row.friendId)) ?? 0,
        bonusEarned: usdt(bonuses.get(row.friendId) ?? 0n),
      };
    }),
  );
  return {
    friends,
    total,
    page: query.page,
    pageSize: query.pageSize,
    totalPoints,
    totalBonus: usdt(totalBonus),
  };
}
