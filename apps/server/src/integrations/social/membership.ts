import type { SocialNetwork } from '@elex/contract';
import type { SocialConfig } from './config.js';
import { discordMembership } from './discord.js';
import { telegramMembership } from './telegram.js';
import type { MembershipClient } from './types.js';

export type { SocialConfig } from './config.js';
export type { MembershipClient } from './types.js';

/** The bot client of a network, or null when its token and chat (or guild) are not configured. */
export function membershipClient(config: SocialConfig, network: SocialNetwork): MembershipClient | null {
  if (network === 'telegram') {
    return config.telegram ? telegramMembership({ ...config.telegram, timeoutMs: config.timeoutMs }) : null;
  }
  return config.discord ? discordMembership({ ...config.discord, timeoutMs: config.timeoutMs }) : null;
}
