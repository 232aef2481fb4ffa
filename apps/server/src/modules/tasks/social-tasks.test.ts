import { type AddressInfo, createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeBot,
  startFakeDiscord,
  startFakeTelegram,
} from '../../integrations/social/testing/fake-bots.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';

const TELEGRAM_TOKEN = '123456:telegram-test-token';
const DISCORD_TOKEN = 'discord.test.token';
const CHAT_ID = '@elexcashback';
const GUILD_ID = '112233445566778899';

let ctx: CashbackTestContext;
let telegram: FakeBot;
let discord: FakeBot;
beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TELEGRAM_TOKEN, chatId: CHAT_ID });
  discord = await startFakeDiscord({ token: DISCORD_TOKEN, guildId: GUILD_ID });
  ctx = await createCashbackTestApp({
    social: {
      telegram: { token: TELEGRAM_TOKEN, chatId: CHAT_ID, apiBase: telegram.url },
      discord: { token: DISCORD_TOKEN, guildId: GUILD_ID, apiBase: discord.url },
      timeoutMs: 300,
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await telegram.close();
  await discord.close();
});

let idCounter = 0;
const nextId = () => {
  idCounter += 1;
  return idCounter;
};
const telegramId = () => `${700000000 + nextId()}`;
const discordId = () => `${112233445566000000n + BigInt(nextId())}`;

const verify = (token: string, body: { taskId: string; accountId?: string }, lang?: string) =>
  call(ctx, '/elex/exchange/fetchMetiaTaskStatus', body, { token, ...(lang ? { lang } : {}) }).then((res) =>
    res.json(),
  );
const claim = (token: string, taskId: string) =>
  call(ctx, '/elex/exchange/receiveScore', { taskId }, { token }).then((res) => res.json());
const taskState = async (token: string, taskId: string) => {
  const body = (await call(ctx, '/elex/exchange/getExchangeTaskDetail', {}, { token })).json();
  return body.content.groups[0].tasks.find((task: { taskId: string }) => task.taskId === taskId);
};

describe('join the messaging channel (Telegram getChatMember)', () => {
  it('verifies a member through the bot, then pays the claim once', async () => {
    const token = await signUp(ctx, nextEmail('tg'));
    const id = telegramId();
    telegram.users.set(id, 'member');
    expect(await taskState(token, 'telegram')).toMatchObject({ verification: 'bot', state: 'unbound' });

    expect(await verify(token, { taskId: 'telegram', accountId: id })).toEqual({
      state: 0,
      message: 'OK',
      content: { taskId: 'telegram', status: 'joined', state: 'claim', accountId: id },
    });
    expect(telegram.requests.at(-1)).toBe(
      `/bot<token>/getChatMember?chat_id=${encodeURIComponent(CHAT_ID)}&user_id=${id}`,
    );
    expect(await claim(token, 'telegram')).toMatchObject({ state: 0, content: { pointsEarned: 50 } });
    expect(await taskState(token, 'telegram')).toMatchObject({ state: 'claimed', accountId: id });
    // Verified once: asking again does not call the bot.
    const calls = telegram.requests.length;
    expect((await verify(token, { taskId: 'telegram' })).content.status).toBe('joined');
    expect(telegram.requests.length).toBe(calls);
  });

  it('answers notJoined for a user not in the channel (or who left), and pays nothing', async () => {
    const token = await signUp(ctx, nextEmail('tg-out'));
    const id = telegramId();
    expect((await verify(token, { taskId: 'telegram', accountId: id })).content).toMatchObject({
      status: 'notJoined',
      state: 'unbound',
    });
    telegram.users.set(id, 'pending');
    expect((await verify(token, { taskId: 'telegram' })).content.status).toBe('notJoined');
    expect(await claim(token, 'telegram')).toMatchObject({
      message: 'Claim Failed: complete the task first',
    });

    // Joining later turns it around.
    telegram.users.set(id, 'restricted');
    expect((await verify(token, { taskId: 'telegram' })).content).toMatchObject({
      status: 'joined',
      state: 'claim',
    });
  });

  it('answers timeout when the bot API is slow, error when it refuses; neither verifies', async () => {
    const token = await signUp(ctx, nextEmail('tg-slow'));
    const id = telegramId();
    telegram.users.set(id, 'slow');
    const started = Date.now();
    expect((await verify(token, { taskId: 'telegram', accountId: id })).content).toMatchObject({
      status: 'timeout',
      state: 'unbound',
    });
    expect(Date.now() - started).toBeLessThan(1_500);

    telegram.users.set(id, 'error');
    expect((await verify(token, { taskId: 'telegram' })).content.status).toBe('error');
    expect(await claim(token, 'telegram')).toMatchObject({ state: 1002 });
  });

  it('one Telegram account earns the task for one member only', async () => {
    const first = await signUp(ctx, nextEmail('tg-a'));
    const second = await signUp(ctx, nextEmail('tg-b'));
    const id = telegramId();
    telegram.users.set(id, 'member');
    expect((await verify(first, { taskId: 'telegram', accountId: id })).content.status).toBe('joined');
    expect(await verify(second, { taskId: 'telegram', accountId: id }, 'zh')).toMatchObject({
      state: 1002,
      message: '该账号已为其他会员完成此任务',
    });
    expect(await claim(second, 'telegram')).toMatchObject({ state: 1002 });
  });

  it('of two members verifying one account at once, one wins', async () => {
    const [first, second] = await Promise.all([
      signUp(ctx, nextEmail('tg-race-a')),
      signUp(ctx, nextEmail('tg-race-b')),
    ]);
    const id = telegramId();
    telegram.users.set(id, 'member');
    const answers = await Promise.all(
      [first, second].map((token) => verify(token, { taskId: 'telegram', accountId: id })),
    );
    expect(answers.filter((answer) => answer.state === 0 && answer.content.status === 'joined')).toHaveLength(
      1,
    );
    expect(answers.filter((answer) => answer.state === 1002)).toHaveLength(1);
  });

  it('checks the account id and asks for one first', async () => {
    const token = await signUp(ctx, nextEmail('tg-id'));
    expect(await verify(token, { taskId: 'telegram' })).toMatchObject({
      state: 1002,
      message: 'Please enter your user ID first',
    });
    expect(await verify(token, { taskId: 'telegram', accountId: '@someone' })).toMatchObject({
      state: 1002,
      message: 'Please enter a valid user ID (digits only)',
    });
  });

  it('a paid account stays with its member: A cannot switch it away, so B can never claim with it', async () => {
    const memberA = await signUp(ctx, nextEmail('tg-paid-a'));
    const memberB = await signUp(ctx, nextEmail('tg-paid-b'));
    const paid = telegramId();
    const next = telegramId();
    telegram.users.set(paid, 'member');
    telegram.users.set(next, 'member');
    expect((await verify(memberA, { taskId: 'telegram', accountId: paid })).content.state).toBe('claim');
    expect((await claim(memberA, 'telegram')).state).toBe(0);

    expect(await verify(memberA, { taskId: 'telegram', accountId: next })).toMatchObject({
      state: 1002,
      message: 'This account has earned the points of this task and can no longer be changed',
    });
    expect(await verify(memberA, { taskId: 'telegram', accountId: next }, 'ko')).toMatchObject({
      message: '이 계정으로 이미 과제 포인트를 받아 더 이상 변경할 수 없습니다',
    });
    expect(await taskState(memberA, 'telegram')).toMatchObject({ state: 'claimed', accountId: paid });

    expect(await verify(memberB, { taskId: 'telegram', accountId: paid })).toMatchObject({
      state: 1002,
      message: 'This account has already completed the task for another member',
    });
    expect(await claim(memberB, 'telegram')).toMatchObject({ state: 1002 });
  });

  it('an account that was paid never pays again, even once no member holds it verified', async () => {
    const memberA = await signUp(ctx, nextEmail('tg-gone-a'));
    const memberB = await signUp(ctx, nextEmail('tg-gone-b'));
    const paid = telegramId();
    telegram.users.set(paid, 'member');
    await verify(memberA, { taskId: 'telegram', accountId: paid });
    expect((await claim(memberA, 'telegram')).state).toBe(0);
    // What the old code let A do (a new id leaves the paid one unverified), done behind the service's back.
    await ctx.db.execute(
      sql`update social_accounts set account_id = '700999999', verified_at = null where network = 'telegram' and account_id = ${paid}`,
    );

    const before = telegram.requests.length;
    expect(await verify(memberB, { taskId: 'telegram', accountId: paid }, 'zh')).toMatchObject({
      state: 1002,
      message: '该账号已为其他会员完成此任务',
    });
    // Refused before asking the bot, and nothing to claim.
    expect(telegram.requests.length).toBe(before);
    expect(await taskState(memberB, 'telegram')).toMatchObject({ state: 'unbound', accountId: paid });
    expect(await claim(memberB, 'telegram')).toMatchObject({
      message: 'Claim Failed: complete the task first',
    });
  });

  it('before a claim the member may still switch ids, and each account pays once', async () => {
    const memberA = await signUp(ctx, nextEmail('tg-move-a'));
    const memberB = await signUp(ctx, nextEmail('tg-move-b'));
    const first = telegramId();
    const second = telegramId();
    telegram.users.set(first, 'member');
    telegram.users.set(second, 'member');
    expect((await verify(memberA, { taskId: 'telegram', accountId: first })).content.status).toBe('joined');
    expect((await verify(memberA, { taskId: 'telegram', accountId: second })).content.status).toBe('joined');
    expect((await verify(memberB, { taskId: 'telegram', accountId: first })).content.status).toBe('joined');
    expect((await claim(memberA, 'telegram')).content.pointsEarned).toBe(50);
    expect((await claim(memberB, 'telegram')).content.pointsEarned).toBe(50);
  });

  it('a changed account id must be verified again', async () => {
    const token = await signUp(ctx, nextEmail('tg-change'));
    const id = telegramId();
    telegram.users.set(id, 'member');
    expect((await verify(token, { taskId: 'telegram', accountId: id })).content.state).toBe('claim');
    const other = telegramId();
    expect((await verify(token, { taskId: 'telegram', accountId: other })).content).toMatchObject({
      status: 'notJoined',
      state: 'unbound',
      accountId: other,
    });
  });
});

describe('join the chat community (Discord guild member)', () => {
  it('joined for a member, notJoined for an unknown or still screening member, timeout when slow', async () => {
    const token = await signUp(ctx, nextEmail('dc'));
    const id = discordId();
    expect((await verify(token, { taskId: 'discord', accountId: id })).content.status).toBe('notJoined');
    discord.users.set(id, 'pending');
    expect((await verify(token, { taskId: 'discord' })).content.status).toBe('notJoined');
    discord.users.set(id, 'slow');
    expect((await verify(token, { taskId: 'discord' })).content.status).toBe('timeout');
    discord.users.set(id, 'error');
    expect((await verify(token, { taskId: 'discord' })).content.status).toBe('error');
    discord.users.set(id, 'member');
    expect((await verify(token, { taskId: 'discord' })).content).toMatchObject({
      status: 'joined',
      state: 'claim',
    });
    expect(discord.requests.at(-1)).toBe(`/guilds/${GUILD_ID}/members/${id}`);
    expect((await claim(token, 'discord')).content.pointsEarned).toBe(50);
    // A Telegram-shaped id is not a Discord id.
    const next = await signUp(ctx, nextEmail('dc-id'));
    expect((await verify(next, { taskId: 'discord', accountId: '123456' })).state).toBe(1002);
  });
});

describe('a misconfigured bot', () => {
  it('answers error for a wrong token and never verifies', async () => {
    const wrong = await createCashbackTestApp({
      social: {
        telegram: { token: 'wrong-token', chatId: CHAT_ID, apiBase: telegram.url },
        discord: { token: 'wrong', guildId: GUILD_ID, apiBase: discord.url },
        timeoutMs: 300,
      },
    });
    try {
      const token = await signUp(wrong, nextEmail('wrong'));
      const id = telegramId();
      telegram.users.set(id, 'member');
      const answer = (
        await call(
          wrong,
          '/elex/exchange/fetchMetiaTaskStatus',
          { taskId: 'telegram', accountId: id },
          { token },
        )
      ).json();
      expect(answer.content).toMatchObject({ status: 'error', state: 'unbound' });
      const dcId = discordId();
      discord.users.set(dcId, 'member');
      const dc = (
        await call(
          wrong,
          '/elex/exchange/fetchMetiaTaskStatus',
          { taskId: 'discord', accountId: dcId },
          { token },
        )
      ).json();
      expect(dc.content.status).toBe('error');
    } finally {
      await wrong.close();
    }
  });

  it('answers error when nothing listens at the configured address; a network without a bot is unavailable', async () => {
    // A port that was just free: connecting is refused at once, well inside the time limit.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const dead = await createCashbackTestApp({
      social: {
        telegram: { token: TELEGRAM_TOKEN, chatId: CHAT_ID, apiBase: `http://127.0.0.1:${port}` },
        discord: null,
        timeoutMs: 5_000,
      },
    });
    try {
      const token = await signUp(dead, nextEmail('dead'));
      const answer = (
        await call(
          dead,
          '/elex/exchange/fetchMetiaTaskStatus',
          { taskId: 'telegram', accountId: telegramId() },
          { token },
        )
      ).json();
      expect(answer.content).toMatchObject({ status: 'error', state: 'unbound' });
      const discordTask = (
        await call(
          dead,
          '/elex/exchange/fetchMetiaTaskStatus',
          { taskId: 'discord', accountId: discordId() },
          { token },
        )
      ).json();
      expect(discordTask.content.status).toBe('unavailable');
    } finally {
      await dead.close();
    }
  });
});
