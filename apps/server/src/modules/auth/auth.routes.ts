import {
  CheckEncrRequestSchema,
  CodeModule,
  DeleteAccountRequestSchema,
  type Envelope,
  LoginRequestSchema,
  type MessageKey,
  RegisterRequestSchema,
  ResetPasswordRequestSchema,
  SettingsSchema,
  State,
  translate,
  UpdatePasswordRequestSchema,
  VerifyCode2RequestSchema,
  VerifyCodeRequestSchema,
  VerifyEmailRequestSchema,
} from '@elex/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestLocale, success } from '../../http/envelope.js';
import { AUTH_RATE_LIMIT } from '../../http/rate-limits.js';
import { parsePayload } from '../../http/validation.js';
import { checkPromotionCode } from '../promotions/promotions.service.js';
import { memberOnly, requireMember } from './auth.guard.js';
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
import { prepareDummyHash } from './passwords.js';

const limited = { config: { rateLimit: AUTH_RATE_LIMIT } };
const memberCall = { preHandler: memberOnly };

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

  app.post('/user/verifyEmail', limited, async (request) => {
    const { email } = parsePayload(VerifyEmailRequestSchema, request.body);
    return success(request, await hasAccount(deps, email));
  });

  // issue 11: the register page asks on load, so a bad promotion code is marked before anything is typed.
  app.post('/user/checkEncr', limited, async (request) => {
    const { encr } = parsePayload(CheckEncrRequestSchema, request.body);
    await checkPromotionCode(deps.db, encr, deps.clock.now());
    return success(request, null);
  });

  // Limited by the code caps counted in the database (cool-down, per e-mail, per IP), not here.
  app.post('/user/verifyCode', async (request) => {
    const payload = parsePayload(VerifyCodeRequestSchema, request.body);
    const member = payload.module === CodeModule.OwnAddress ? await requireMember(request) : null;
    return done(request, 'codeSent', await requestCode(deps, payload, context(request), member));
  });

  app.post('/user/verifyCode2', limited, async (request) => {
    const payload = parsePayload(VerifyCode2RequestSchema, request.body);
    const member = payload.module === CodeModule.OwnAddress ? await requireMember(request) : null;
    await verifyCodeOnly(deps, payload, member);
    return success(request, null);
  });

  app.post('/user/register', limited, async (request) => {
    const payload = parsePayload(RegisterRequestSchema, request.body);
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

  app.post('/user/login', limited, async (request) => {
    const payload = parsePayload(LoginRequestSchema, request.body);
    const answer = await login(
      deps,
      { email: payload.email, password: payload.passwd, code: payload.authcode },
      context(request),
    );
    return done(request, 'welcome', answer);
  });

  app.post('/user/changePasswd', limited, async (request) => {
    const payload = parsePayload(ResetPasswordRequestSchema, request.body);
    await resetPassword(
      deps,
      { email: payload.email, code: payload.authCode, password: payload.passwd },
      context(request),
    );
    return done(request, 'passwordResetSuccessful', null);
  });

  app.post('/user/updatePass', memberCall, async (request) => {
    const member = await requireMember(request);
    const payload = parsePayload(UpdatePasswordRequestSchema, request.body);
    const answer = await updatePassword(
      deps,
      member,
      { oldPassword: payload.oldPasswd, password: payload.passwd },
      context(request),
    );
    return done(request, 'passwordChanged', answer);
  });

  app.post('/user/logout', memberCall, async (request) => {
    await logout(deps, await requireMember(request));
    return done(request, 'loggedOut', null);
  });

  app.post('/user/deleteAccount', memberCall, async (request) => {
    const member = await requireMember(request);
    const payload = parsePayload(DeleteAccountRequestSchema, request.body);
    await deleteAccount(
      deps,
      member,
      { password: payload.passwd, forfeitTotal: payload.forfeitTotal },
      context(request),
      endMemberHoldings,
    );
    return done(request, 'accountDeleted', null);
  });

  app.post('/user/getSettings', memberCall, async (request) => {
    return success(request, await getSettings(deps, await requireMember(request)));
  });

  app.post('/user/saveSettings', memberCall, async (request) => {
    const member = await requireMember(request);
    const payload = parsePayload(SettingsSchema, request.body);
    return done(request, 'savedSuccessfully', await saveSettings(deps, member, payload));
  });

  app.post('/user/profile', memberCall, async (request) => {
    return success(request, await getProfile(deps, await requireMember(request)));
  });
}
