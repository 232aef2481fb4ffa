import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('community bot settings', () => {
  it('leaves both bots unconfigured by default, with a 5 s check limit', () => {
    expect(loadConfig({}).social).toEqual({ telegram: null, discord: null, timeoutMs: 5_000 });
  });

  it('configures a bot only with its token and its chat or guild', () => {
    const config = loadConfig({
      TELEGRAM_BOT_TOKEN: '123:abc',
      TELEGRAM_CHAT_ID: '@elexcashback',
      TELEGRAM_API_BASE: 'http://127.0.0.1:9999/',
      DISCORD_BOT_TOKEN: 'discord-token',
      SOCIAL_VERIFY_TIMEOUT_MS: '800',
    });
    expect(config.social).toEqual({
      telegram: { token: '123:abc', chatId: '@elexcashback', apiBase: 'http://127.0.0.1:9999' },
      discord: null,
      timeoutMs: 800,
    });
  });

  it('refuses a guild id that is not a Discord snowflake', () => {
    expect(() => loadConfig({ DISCORD_GUILD_ID: 'my-guild' })).toThrow(ConfigError);
  });

  it('reads the invite points, 50 for the friend and 100 for the inviter by default', () => {
    expect(loadConfig({}).invitePoints).toEqual({ friendSignup: 50, perFriend: 100 });
    expect(loadConfig({ INVITE_SIGNUP_POINTS: '0', INVITE_FRIEND_POINTS: '25' }).invitePoints).toEqual({
      friendSignup: 0,
      perFriend: 25,
    });
    expect(() => loadConfig({ INVITE_FRIEND_POINTS: '-1' })).toThrow(ConfigError);
  });
});
