import { State } from '@elex/contract';
import { vi } from 'vitest';
import { envelope } from '../../../test/helpers';

export const WAIT_MESSAGE = (seconds: number) =>
  `Please wait ${seconds} seconds before requesting another code`;

export interface AuthServer {
  /** Seconds left of the previous code's cool-down: the code request is refused with them. */
  coolDownSeconds?: number;
  /** The answer to /elex/user/changePasswd (success unless told). */
  reset?: () => Response;
}

/** Answers the account calls the auth pages make, as the server does; records each call. */
export function stubAuthServer(server: AuthServer = {}) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      calls.push({ url, body });
      switch (url) {
        case '/elex/user/verifyCode':
          return server.coolDownSeconds === undefined
            ? envelope({ resendAfterSeconds: 60 }, 0, 'Verification code sent')
            : envelope(
                { resendAfterSeconds: server.coolDownSeconds },
                State.TooManyRequests,
                WAIT_MESSAGE(server.coolDownSeconds),
              );
        case '/elex/user/verifyEmail':
          return envelope({ hasEmail: false });
        case '/elex/user/verifyCode2':
          return String(body.authCode) === '123456'
            ? envelope(null)
            : envelope(null, State.Refused, 'Invalid verification code');
        case '/elex/user/changePasswd':
          return server.reset ? server.reset() : envelope(null, 0, 'Password Reset Successful');
        default:
          return envelope(null);
      }
    }),
  );
  return calls;
}
