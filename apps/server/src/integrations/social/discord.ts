import { getJson, isCheck } from './http.js';
import type { MembershipCheck, MembershipClient } from './types.js';

/** JSON error codes of a 404 that mean "not in the guild" (https://discord.com/developers/docs/topics/opcodes-and-status-codes). */
const UNKNOWN_MEMBER = 10007;
const UNKNOWN_USER = 10013;

interface DiscordAnswer {
  user?: { id?: string };
  /** True while the member has not passed the guild's membership screening. */
  pending?: boolean;
  code?: number;
  message?: string;
}

/**
 * Discord `GET /guilds/{guild.id}/members/{user.id}` with the bot's token
 * (https://discord.com/developers/docs/resources/guild#get-guild-member). A member still pending the
 * guild's rules screening has not joined yet.
 */
export function discordMembership(settings: {
  token: string;
  guildId: string;
  apiBase: string;
  timeoutMs: number;
}): MembershipClient {
  return {
    async isMember(userId: string): Promise<MembershipCheck> {
      const url = `${settings.apiBase}/guilds/${encodeURIComponent(settings.guildId)}/members/${encodeURIComponent(userId)}`;
      const answer = await getJson(url, { authorization: `Bot ${settings.token}` }, settings.timeoutMs);
      if (isCheck(answer)) return answer;
      const body = (answer.body ?? {}) as DiscordAnswer;
      if (answer.status === 200)
        return body.pending === true ? { outcome: 'notMember' } : { outcome: 'member' };
      if (answer.status === 404 && (body.code === UNKNOWN_MEMBER || body.code === UNKNOWN_USER)) {
        return { outcome: 'notMember' };
      }
      return {
        outcome: 'error',
        detail: `Discord HTTP ${answer.status}: ${body.code ?? '?'} ${body.message ?? ''}`.trim(),
      };
    },
  };
}
