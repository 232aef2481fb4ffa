import { randomInt } from 'node:crypto';
import { CodeModule, type Locale, State, VERIFICATION_CODE } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { displayTime } from '../../lib/display-time.js';
import { enqueueMail } from '../mail/outbox.js';
import {
  consumeCode,
  countCodesForEmailSince,
  countCodesForIpSince,
  findCodeById,
  findNewestCode,
  insertCode,
  lockCodeRequests,
  lockResetTries,
  releaseCodeAttempt,
  reserveCodeAttempt,
  wrongTriesSince,
} from './auth.repository.js';
import { codeDigest, emailDigest, ipDigest, sameDigest } from './digests.js';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The reset budget (red-team review, 2026-11-30): an e-mail's wrong reset codes in the last 24 hours,
 * across its codes, are at most `maxWrongResetTriesPerDay`; beyond, reset is refused, naming when the
 * oldest tries leave the window. Counted by e-mail, not account, so an unknown address answers alike.
 * Login codes are another module: a stranger's reset guesses never stop a login by password.
 */
async function refuseIfResetTriesSpent(deps: AppDeps, db: Executor, emailHash: string): Promise<void> {
  const now = deps.clock.now();
  const codes = await wrongTriesSince(
    db,
    emailHash,
    CodeModule.ResetPassword,
    new Date(now.getTime() - DAY_MS),
  );
  let wrong = codes.reduce((sum, code) => sum + code.attempts, 0);
  if (wrong < VERIFICATION_CODE.maxWrongResetTriesPerDay) return;
  for (const code of codes) {
    wrong -= code.attempts;
    if (wrong < VERIFICATION_CODE.maxWrongResetTriesPerDay) {
      throw AppError.refused('resetCodeTriesExceeded', {
        time: displayTime(new Date(code.createdAt.getTime() + DAY_MS)),
      });
    }
  }
}

export interface IssueCodeInput {
  email: string;
  module: CodeModule;
  ip: string;
  locale: Locale;
  /** False for an unknown e-mail on login or reset: the code is recorded (so cool-down and caps
   * behave the same) but no mail leaves, and the caller cannot tell the difference. */
  sendMail: boolean;
  userId?: number | null;
}

/**
 * Creates a code and queues its mail in one transaction. Refuses within 60 s of the previous code for
 * the same e-mail and module, and beyond the hourly caps per e-mail and per IP (counted from the
 * table, so the limits hold across instances).
 */
export async function issueCode(
  deps: AppDeps,
  input: IssueCodeInput,
): Promise<{ resendAfterSeconds: number }> {
  const { config, clock } = deps;
  const emailHash = emailDigest(config.appSecret, input.email);
  const ipHash = ipDigest(config.appSecret, input.ip);
  await deps.db.transaction(async (tx) => {
    await lockCodeRequests(tx, emailHash, ipHash);
    // A reset code that could not be used is not mailed.
    if (input.module === CodeModule.ResetPassword) await refuseIfResetTriesSpent(deps, tx, emailHash);
    const now = clock.now();
    const previous = await findNewestCode(tx, emailHash, input.module);
    if (previous) {
      const readyAt = previous.createdAt.getTime() + VERIFICATION_CODE.resendSeconds * 1000;
      if (readyAt > now.getTime()) {
        // The content tells the client how long its code dialog counts down: the code sent moments
        // ago is still valid, so the dialog opens for it. The same answer for an unknown e-mail.
        const seconds = Math.ceil((readyAt - now.getTime()) / 1000);
        throw new AppError(
          State.TooManyRequests,
          'waitSeconds',
          { seconds },
          { resendAfterSeconds: seconds },
        );
      }
    }
    const hourAgo = new Date(now.getTime() - HOUR_MS);
    if ((await countCodesForEmailSince(tx, emailHash, hourAgo)) >= VERIFICATION_CODE.maxPerEmailPerHour) {
      throw new AppError(State.TooManyRequests, 'tooManyRequests');
    }
    if ((await countCodesForIpSince(tx, ipHash, hourAgo)) >= VERIFICATION_CODE.maxPerIpPerHour) {
      throw new AppError(State.TooManyRequests, 'tooManyRequests');
    }
    const code = String(randomInt(0, 10 ** VERIFICATION_CODE.length)).padStart(VERIFICATION_CODE.length, '0');
    await insertCode(tx, {
      emailHash,
      module: input.module,
      codeHash: codeDigest(config.appSecret, input.email, input.module, code),
      ipHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + VERIFICATION_CODE.validMinutes * 60_000),
    });
    if (input.sendMail) {
      await enqueueMail(tx, deps, {
        template: 'verificationCode',
        locale: input.locale,
        to: input.email,
        params: { code, module: input.module, validMinutes: VERIFICATION_CODE.validMinutes },
        userId: input.userId ?? null,
      });
    }
  });
  return { resendAfterSeconds: VERIFICATION_CODE.resendSeconds };
}

export interface CodeAttempt {
  codeId: number;
  matches: boolean;
}

export interface CodeInput {
  email: string;
  module: CodeModule;
  code: string;
}

/**
 * Counts one try against the newest code for the e-mail and module and compares. Throws for a
 * missing, used, expired or exhausted code. The try stays counted until `releaseCodeAttempt`: a
 * caller releases it only when the whole request is right (login also needs the password).
 */
export async function attemptCode(deps: AppDeps, input: CodeInput): Promise<CodeAttempt> {
  const { config, clock, db } = deps;
  const newest = await findNewestCode(db, emailDigest(config.appSecret, input.email), input.module);
  if (!newest || newest.consumedAt) throw AppError.refused('codeInvalid');
  if (newest.expiresAt.getTime() <= clock.now().getTime()) throw AppError.refused('codeExpired');
  const reserved =
    input.module === CodeModule.ResetPassword
      ? await db.transaction(async (tx) => {
          // The budget's check and the try's reservation under one lock: racing guesses cannot pass it.
          await lockResetTries(tx, newest.emailHash);
          await refuseIfResetTriesSpent(deps, tx, newest.emailHash);
          return reserveCodeAttempt(tx, newest.id, VERIFICATION_CODE.maxWrongAttempts);
        })
      : await reserveCodeAttempt(db, newest.id, VERIFICATION_CODE.maxWrongAttempts);
  if (!reserved) {
    const current = await findCodeById(db, newest.id);
    throw AppError.refused(current?.consumedAt ? 'codeInvalid' : 'codeAttemptsExceeded');
  }
  const matches = sameDigest(
    codeDigest(config.appSecret, input.email, input.module, input.code),
    newest.codeHash,
  );
  return { codeId: newest.id, matches };
}

/** Gives a right try back, in the caller's transaction when it is given (so a refusal keeps it counted). */
export function releaseAttempt(deps: AppDeps, attempt: CodeAttempt, db: Executor = deps.db) {
  return releaseCodeAttempt(db, attempt.codeId);
}

/** Checks a code without using it up; a wrong one counts as a try. Answers the code's id. */
export async function checkCode(deps: AppDeps, input: CodeInput): Promise<number> {
  const attempt = await attemptCode(deps, input);
  if (!attempt.matches) throw AppError.refused('codeInvalid');
  await releaseAttempt(deps, attempt);
  return attempt.codeId;
}

/** Uses up a checked code in the caller's transaction; false when another request used it first. */
export function useCode(tx: Executor, deps: Pick<AppDeps, 'clock'>, codeId: number): Promise<boolean> {
  return consumeCode(tx, codeId, deps.clock.now());
}
