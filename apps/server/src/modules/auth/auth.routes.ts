import { CodeModule, type Envelope, type MessageKey, State, translate } from '@elex/contract';
import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { requestLocale, success } from '../../http/envelope.js';
import { AUTH_RATE_LIMIT, SESSION_PASSWORD_CHECKS } from '../../http/rate-limits.js';
import { loadPartners } from '../cashback/partners.js';
import { checkPromotionCode } from '../promotions/promotions.service.js';
import { requireMember } from './auth.guard.js';
import {
  deleteAccount,
  getProfile,
  getSettings,
  hasAccount,
  login,
  logout,
  type RequestContext,
  register,
  requestCode,
  resetPassword,
  saveSettings,
  updatePassword,
  verifyCodeOnly,
} from './auth.service.js';
import { endMemberHoldings } from './deletion.js';
import { tokenDigest } from './digests.js';
import { prepareDummyHash } from './passwords.js';

const limited = { config: { rateLimit: AUTH_RATE_LIMIT } };

function context(request: FastifyRequest): RequestContext {
  return { ip: request.ip, locale: requestLocale(request) };
}

/** A success whose message the client shows as it is (spec section 8: 'Verification code sent' ...). */
function done<T>(request: FastifyRequest, messageKey: MessageKey, content: T): Envelope<T> {
  return { state: State.Success, message: translate(requestLocale(request), messageKey), content };
}

export async function authRoutes(app: FastifyInstance) {
  const deps = app.deps;
  await prepareDummyHash();
  // Per address (above) and per session (SESSION_PASSWORD_CHECKS): the member guard has run before
  // this, so the token is a live session's. Counted in the limits' store (Redis when configured).
  const perSession = app.createRateLimit({
    ...SESSION_PASSWORD_CHECKS,
    keyGenerator: (request) =>
      `session|${request.routeOptions.url}|${tokenDigest(String(request.headers.token ?? '').trim())}`,
  });
  const passwordChecked = {
    ...limited,
    preHandler: async (request: FastifyRequest) => {
      const counted = await perSession(request);
      if ('isExceeded' in counted && counted.isExceeded) {
        throw Object.assign(new Error('too many password checks for this session'), { statusCode: 429 });
      }
    },
  };

  serve(app, ENDPOINTS.userVerifyEmail, limited, async (request, { email }) => {
    return success(request, await hasAccount(deps, email));
  });

  // issue 11: the register page asks on load, so a bad promotion code is marked before anything is typed.
  serve(app, ENDPOINTS.userCheckEncr, limited, async (request, { encr }) => {
    await checkPromotionCode(deps.db, encr, deps.clock.now());
    return success(request, null);
  });

  // Limited by the code caps counted in the database (cool-down, per e-mail, per IP), not here.
  serve(app, ENDPOINTS.userVerifyCode, async (request, payload) => {
    const member = payload.module === CodeModule.OwnAddress ? await requireMember(request) : null;
    return done(request, 'codeSent', await requestCode(deps, payload, context(request), member));
  });

  serve(app, ENDPOINTS.userVerifyCode2, limited, async (request, payload) => {
    const member = payload.module === CodeModule.OwnAddress ? await requireMember(request) : null;
    await verifyCodeOnly(deps, payload, member);
    return success(request, null);
  });

  serve(app, ENDPOINTS.userRegister, limited, async (request, payload) => {
    const answer = await register(
      deps,
      {
        email: payload.email,
        password: payload.passwd,
        inviteCode: payload.code,
        code: payload.authcode,
        encr: payload.encr,
        marketingConsent: payload.marketingConsent,
      },
      context(request),
    );
    return done(request, 'welcome', answer);
  });

  serve(app, ENDPOINTS.userLogin, limited, async (request, payload) => {
    const answer = await login(
      deps,
      { email: payload.email, password: payload.passwd, code: payload.authcode },
      context(request),
    );
    return done(request, 'welcome', answer);
  });

  serve(app, ENDPOINTS.userChangePasswd, limited, async (request, payload) => {
    await resetPassword(
      deps,
      { email: payload.email, code: payload.authCode, password: payload.passwd },
      context(request),
    );
    return done(request, 'passwordResetSuccessful', null);
  });

  serve(app, ENDPOINTS.userUpdatePass, passwordChecked, async (request, payload) => {
    const member = await requireMember(request);
    const answer = await updatePassword(
      deps,
      member,
      { oldPassword: payload.oldPasswd, password: payload.passwd },
      context(request),
    );
    return done(request, 'passwordChanged', answer);
  });

  serve(app, ENDPOINTS.userLogout, async (request) => {
    await logout(deps, await requireMember(request));
    return done(request, 'loggedOut', null);
  });

  serve(app, ENDPOINTS.userDeleteAccount, passwordChecked, async (request, payload) => {
    const member = await requireMember(request);
    // Before the transaction: on PGlite a query outside it would wait for it (the holder's mail names it).
    const partners = await loadPartners(deps);
    const exchangeName = (platId: number) => partners.get(platId)?.name ?? `#${platId}`;
    await deleteAccount(
      deps,
      member,
      { password: payload.passwd, forfeitTotal: payload.forfeitTotal },
      context(request),
      (tx, userId, at, shown) => endMemberHoldings(tx, userId, at, shown, { deps, exchangeName }),
    );
    return done(request, 'accountDeleted', null);
  });

  serve(app, ENDPOINTS.userGetSettings, async (request) => {
    return success(request, await getSettings(deps, await requireMember(request)));
  });

  serve(app, ENDPOINTS.userSaveSettings, async (request, payload) => {
    const member = await requireMember(request);
    return done(request, 'savedSuccessfully', await saveSettings(deps, member, payload));
  });

  serve(app, ENDPOINTS.userProfile, async (request) => {
    return success(request, await getProfile(deps, await requireMember(request)));
  });
}
