import { getJson, isCheck } from './http.js';
import type { MembershipCheck, MembershipClient } from './types.js';

/** Member statuses of the Bot API's ChatMember (https://core.telegram.org/bots/api#chatmember). */
const MEMBER_STATUSES = new Set(['creator', 'administrator', 'member']);
/** 400 descriptions that mean "this user is not in the chat" rather than a fault of ours. */
const NOT_MEMBER_DESCRIPTIONS = /user not found|participant_id_invalid|member not found|user_id_invalid/i;

interface TelegramAnswer {
  ok?: boolean;
  result?: { status?: string; is_member?: boolean };
  error_code?: number;
  description?: string;
}

/**
 * Telegram Bot API `getChatMember` (https://core.telegram.org/bots/api#getchatmember): the bot must
 * be an administrator of the channel to see its members. A restricted user counts when `is_member`.
 */
export function telegramMembership(settings: {
  token: string;
  chatId: string;
  apiBase: string;
  timeoutMs: number;
}): MembershipClient {
  return {
    async isMember(userId: string): Promise<MembershipCheck> {
      const query = new URLSearchParams({ chat_id: settings.chatId, user_id: userId });
      const url = `${settings.apiBase}/bot${encodeURIComponent(settings.token)}/getChatMember?${query}`;
      const answer = await getJson(url, {}, settings.timeoutMs);
      if (isCheck(answer)) return answer;
      const body = (answer.body ?? {}) as TelegramAnswer;
      if (body.ok === true && body.result) {
        const status = body.result.status ?? '';
        if (MEMBER_STATUSES.has(status)) return { outcome: 'member' };
        if (status === 'restricted' && body.result.is_member === true) return { outcome: 'member' };
        return { outcome: 'notMember' };
      }
      if (answer.status === 400 && NOT_MEMBER_DESCRIPTIONS.test(body.description ?? '')) {
        return { outcome: 'notMember' };
      }
      return {
        outcome: 'error',
        detail: `Telegram HTTP ${answer.status}: ${body.error_code ?? '?'} ${body.description ?? ''}`.trim(),
      };
    },
  };
}
