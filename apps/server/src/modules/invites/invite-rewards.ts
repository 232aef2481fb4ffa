import type { Transaction } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { grantPoints } from '../points/points.service.js';
import { insertInvitation } from './invites.repository.js';

/** Points entries of an invitation; the reference is the friend's user id, so each pays once per friend. */
export const INVITE_POINTS_REASONS = { friend: 'inviteSignup', inviter: 'inviteFriend' } as const;

/**
 * Called by registration, inside its transaction, when the new member came with an invite code:
 * records the invitation and grants the friend's sign-up points and the inviter's points per friend
 * (INVITE_SIGNUP_POINTS, INVITE_FRIEND_POINTS). Idempotent by the friend: a retry pays nothing twice.
 * The USDT bonus on the friend's cashback is the cashback engine's, at settlement.
 *
 * `inviterSuspended`: an operator suspended the inviter (registration read it with the row held). The
 * invitation is recorded and the friend paid, but the inviter earns no points for it, then or later:
 * a suspension stops an account from earning rewards for bringing members (docs/engagement.md).
 */
export async function recordInvitation(
  tx: Transaction,
  deps: Pick<AppDeps, 'config'>,
  input: { inviterId: number; friendId: number; at: Date; inviterSuspended?: boolean },
): Promise<void> {
  if (input.inviterId === input.friendId) return;
  await insertInvitation(tx, { friendId: input.friendId, inviterId: input.inviterId, createdAt: input.at });
  const reference = String(input.friendId);
  const { friendSignup, perFriend } = deps.config.invitePoints;
  if (friendSignup > 0) {
    await grantPoints(tx, {
      userId: input.friendId,
      currency: 'points',
      amount: friendSignup,
      reason: INVITE_POINTS_REASONS.friend,
      reference,
      at: input.at,
    });
  }
  if (perFriend > 0 && input.inviterSuspended !== true) {
    await grantPoints(tx, {
      userId: input.inviterId,
      currency: 'points',
      amount: perFriend,
      reason: INVITE_POINTS_REASONS.inviter,
      reference,
      at: input.at,
    });
  }
}
