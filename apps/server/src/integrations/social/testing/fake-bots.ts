import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fakes of the Telegram Bot API and the Discord API on 127.0.0.1, answering the documented
 * shapes. Each checks the bot token the way the real service does (Telegram: in the path; Discord:
 * `Authorization: Bot <token>`) and answers per user id: a member, not a member, an error, or slowly.
 */
type FakeBehaviour = 'member' | 'notMember' | 'pending' | 'restricted' | 'error' | 'slow';

export interface FakeBot {
  url: string;
  token: string;
  /** How each user id is answered; an unknown id is not a member. */
  users: Map<string, FakeBehaviour>;
  /** Requests received, path and query only (no token), for assertions. */
  requests: string[];
  /** How long a 'slow' answer waits. */
  slowMs: number;
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function closer(server: http.Server, timers: Set<NodeJS.Timeout>) {
  return () =>
    new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** Telegram: GET /bot<token>/getChatMember?chat_id=&user_id= */
export async function startFakeTelegram(options: { token: string; chatId: string }): Promise<FakeBot> {
  const timers = new Set<NodeJS.Timeout>();
  const bot: Omit<FakeBot, 'url' | 'close'> = {
    token: options.token,
    users: new Map(),
    requests: [],
    slowMs: 2_000,
  };
  const { server, url } = await listen((request, response) => {
    const parsed = new URL(request.url ?? '/', 'http://fake');
    const match = parsed.pathname.match(/^\/bot([^/]+)\/getChatMember$/);
    bot.requests.push(`${match ? '/bot<token>/getChatMember' : parsed.pathname}${parsed.search}`);
    if (!match) return send(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (decodeURIComponent(match[1] ?? '') !== bot.token) {
      return send(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    }
    if (parsed.searchParams.get('chat_id') !== options.chatId) {
      return send(response, 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
    }
    const userId = parsed.searchParams.get('user_id') ?? '';
    const behaviour = bot.users.get(userId) ?? 'notMember';
    const user = { id: Number(userId), is_bot: false, first_name: 'Fake' };
    switch (behaviour) {
      case 'member':
        return send(response, 200, { ok: true, result: { status: 'member', user } });
      case 'restricted':
        return send(response, 200, { ok: true, result: { status: 'restricted', is_member: true, user } });
      case 'pending':
        return send(response, 200, { ok: true, result: { status: 'left', user } });
      case 'error':
        return send(response, 403, {
          ok: false,
          error_code: 403,
          description: 'Forbidden: bot was kicked from the channel chat',
        });
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(response, 200, { ok: true, result: { status: 'member', user } });
        }, bot.slowMs);
        timers.add(timer);
        return;
      }
      default:
        return send(response, 400, {
          ok: false,
          error_code: 400,
          description: 'Bad Request: user not found',
        });
    }
  });
  return Object.assign(bot, { url, close: closer(server, timers) });
}

/** Discord: GET /guilds/<guild>/members/<user> with Authorization: Bot <token> */
export async function startFakeDiscord(options: { token: string; guildId: string }): Promise<FakeBot> {
  const timers = new Set<NodeJS.Timeout>();
  const bot: Omit<FakeBot, 'url' | 'close'> = {
    token: options.token,
    users: new Map(),
    requests: [],
    slowMs: 2_000,
  };
  const { server, url } = await listen((request, response) => {
    const parsed = new URL(request.url ?? '/', 'http://fake');
    bot.requests.push(parsed.pathname);
    if (request.headers.authorization !== `Bot ${bot.token}`) {
      return send(response, 401, { message: '401: Unauthorized', code: 0 });
    }
    const match = parsed.pathname.match(/^\/guilds\/(\d+)\/members\/(\d+)$/);
    if (!match) return send(response, 404, { message: '404: Not Found', code: 0 });
    if (match[1] !== options.guildId) return send(response, 404, { message: 'Unknown Guild', code: 10004 });
    const userId = match[2] ?? '';
    const behaviour = bot.users.get(userId) ?? 'notMember';
    const member = {
      user: { id: userId, username: 'fake' },
      roles: [],
      joined_at: '2026-01-01T00:00:00.000000+00:00',
    };
    switch (behaviour) {
      case 'member':
      case 'restricted':
        return send(response, 200, { ...member, pending: false });
      case 'pending':
        return send(response, 200, { ...member, pending: true });
      case 'error':
        return send(response, 403, { message: 'Missing Access', code: 50001 });
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(response, 200, { ...member, pending: false });
        }, bot.slowMs);
        timers.add(timer);
        return;
      }
      default:
        return send(response, 404, { message: 'Unknown Member', code: 10007 });
    }
  });
  return Object.assign(bot, { url, close: closer(server, timers) });
}
