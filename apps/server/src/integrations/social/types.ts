/**
 * What a community bot says about a user: in the community, not in it, or that it could not tell
 * (`timeout`: no answer in time; `error`: an error answer, e.g. a revoked token or the bot removed).
 * `detail` is for the log only; it never holds the token.
 */
export type MembershipCheck =
  | { outcome: 'member' }
  | { outcome: 'notMember' }
  | { outcome: 'timeout' }
  | { outcome: 'error'; detail: string };

export interface MembershipClient {
  isMember(userId: string): Promise<MembershipCheck>;
}
