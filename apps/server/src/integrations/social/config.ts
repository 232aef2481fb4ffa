import * as z from 'zod';

/**
 * Settings of the community bots that verify the social tasks, merged into config.ts's EnvSchema.
 * A network counts as configured only with both its token and its chat or guild; without them its
 * task says it cannot be verified now and never pays. The API bases default to the real hosts; tests
 * point them at local fakes.
 */
const optionalText = z.string().trim().min(1).optional();

export const socialEnvShape = {
  /** Telegram Bot API token of a bot that is an administrator of the channel (getChatMember). */
  TELEGRAM_BOT_TOKEN: optionalText,
  /** The channel: @username or the numeric chat id (-100...). */
  TELEGRAM_CHAT_ID: optionalText,
  TELEGRAM_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.telegram.org'),
  /** Discord bot token; the bot is in the guild with the Server Members intent. */
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_GUILD_ID: z
    .string()
    .trim()
    .regex(/^\d{17,20}$/)
    .optional(),
  DISCORD_API_BASE: z.url({ protocol: /^https?$/ }).default('https://discord.com/api/v10'),
  /** How long a membership check may take before it answers 'timeout'. */
  SOCIAL_VERIFY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
};

export interface SocialConfig {
  telegram: { token: string; chatId: string; apiBase: string } | null;
  discord: { token: string; guildId: string; apiBase: string } | null;
  timeoutMs: number;
}

type SocialEnv = z.output<z.ZodObject<typeof socialEnvShape>>;

export function readSocialSettings(env: SocialEnv): SocialConfig {
  const base = (url: string) => url.replace(/\/$/, '');
  return {
    telegram:
      env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_CHAT_ID
        ? {
            token: env.TELEGRAM_BOT_TOKEN,
            chatId: env.TELEGRAM_CHAT_ID,
            apiBase: base(env.TELEGRAM_API_BASE),
          }
        : null,
    discord:
      env.DISCORD_BOT_TOKEN && env.DISCORD_GUILD_ID
        ? { token: env.DISCORD_BOT_TOKEN, guildId: env.DISCORD_GUILD_ID, apiBase: base(env.DISCORD_API_BASE) }
        : null,
    timeoutMs: env.SOCIAL_VERIFY_TIMEOUT_MS,
  };
}
