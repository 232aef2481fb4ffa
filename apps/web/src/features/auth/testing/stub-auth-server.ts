import { State } from '@elex/contract';
import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { expect, vi } from 'vitest';
import { envelope } from '../../../test/helpers';

const WAIT_MESSAGE = (seconds: number) => `Please wait ${seconds} seconds before requesting another code`;

/**
 * A resubmit inside the cool-down (issue 15): a calm info note that the code mailed moments ago is
 * still valid, never the server's 'Please wait' as an error or warning.
 */
export async function expectCoolDownNote(seconds: number) {
  const note = await screen.findByText(i18next.t('codeCoolDown.stillValid', { seconds }));
  expect(note.closest('[data-sonner-toast]')).toHaveAttribute('data-type', 'info');
  expect(screen.queryByText(WAIT_MESSAGE(seconds))).not.toBeInTheDocument();
  expect(document.querySelector('[data-sonner-toast][data-type="error"]')).toBeNull();
}

/** The code the stub server accepts, at verifyCode2 as at login and register. */
export const GOOD_CODE = '123456';
/** The token the stub server issues at login and register. */
export const ISSUED_TOKEN = 'issued-session-token';

type Body = Record<string, unknown>;
type Answer = (body: Body) => Response | Promise<Response>;

export interface AuthServer {
  /** Seconds left of the previous code's cool-down: the code request is refused with them. */
  coolDownSeconds?: number;
  /** Any other answer to /elex/user/verifyCode (a refusal, or one that has not come yet). */
  sendCode?: Answer;
  /** The answer to /elex/user/checkEncr (any code is good unless told). */
  checkEncr?: Answer;
  /** The answer to /elex/user/verifyEmail (no account uses the e-mail unless told). */
  verifyEmail?: Answer;
  /** The answer to /elex/user/login (a token for the good code unless told). */
  login?: Answer;
  /** The answer to /elex/user/register (a token for the good code unless told). */
  register?: Answer;
  /** The answer to /elex/user/changePasswd (success unless told). */
  reset?: () => Response;
}

const tokenForGoodCode = (body: Body) =>
  String(body.authcode) === GOOD_CODE
    ? envelope({ token: ISSUED_TOKEN })
    : envelope(null, State.Refused, 'Invalid verification code');

/** Answers the account calls the auth pages make, as the server does; records each call. */
export function stubAuthServer(server: AuthServer = {}) {
  const calls: Array<{ url: string; body: Body }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const body = init?.body ? (JSON.parse(String(init.body)) as Body) : {};
      calls.push({ url, body });
      switch (url) {
        case '/elex/user/verifyCode':
          if (server.sendCode) return server.sendCode(body);
          return server.coolDownSeconds === undefined
            ? envelope({ resendAfterSeconds: 60 }, 0, 'Verification code sent')
            : envelope(
                { resendAfterSeconds: server.coolDownSeconds },
                State.TooManyRequests,
                WAIT_MESSAGE(server.coolDownSeconds),
              );
        case '/elex/user/checkEncr':
          return server.checkEncr ? server.checkEncr(body) : envelope(null);
        case '/elex/user/verifyEmail':
          return server.verifyEmail ? server.verifyEmail(body) : envelope({ hasEmail: false });
        case '/elex/user/verifyCode2':
          return String(body.authCode) === GOOD_CODE
            ? envelope(null)
            : envelope(null, State.Refused, 'Invalid verification code');
        case '/elex/user/login':
          return (server.login ?? tokenForGoodCode)(body);
        case '/elex/user/register':
          return (server.register ?? tokenForGoodCode)(body);
        case '/elex/user/changePasswd':
          return server.reset ? server.reset() : envelope(null, 0, 'Password Reset Successful');
        default:
          return envelope(null);
      }
    }),
  );
  return {
    calls,
    /** The bodies sent to `url`, in order. */
    bodies: (url: string) => calls.filter((call) => call.url === url).map((call) => call.body),
    /** The analytics events sent so far (`/elex/track`), in order. */
    tracked: () => calls.filter((call) => call.url === '/elex/track').map((call) => call.body),
  };
}
