import type { InviteLink, Profile } from '@elex/contract';

/** The member My Page's tests show: a profile and the invite link the server would answer. */
export const PROFILE: Profile = {
  email: 'member@example.com',
  userCode: 'EXABC234',
  inviteCode: 'K7Q2M9XA',
  points: 1234,
  xmeEnergy: 1000,
  withdrawalLockedUntil: null,
  createdAt: '2026-03-01T10:00:00.000Z',
};

export const LINK: InviteLink = {
  inviteCode: PROFILE.inviteCode,
  link: `https://elex.example/register?inviteCode=${PROFILE.inviteCode}`,
  rewards: { friendSignupPoints: 50, inviterPointsPerFriend: 100, bonusPercent: 10 },
};
