import { randomInt } from 'node:crypto';
import { domainToUnicode } from 'node:url';
import {
  CodeModule,
  DECIMALS,
  EXCLUSIVE_SIGNUP,
  type Locale,
  normalizeEmail,
  type Profile,
  type Settings,
  State,
  toScaled,
  WITHDRAWAL,
} from '@elex/contract';
import type { Executor, Transaction } from '../../db/client.js';
import { answerKind, keptForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { recordInvitation } from '../invites/invite-rewards.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import { dropPendingMailsOf, enqueueMail } from '../mail/outbox.js';
import { balances, grantPoints } from '../points/points.service.js';
import { checkPromotionCode, usePromotionCode } from '../promotions/promotions.service.js';
import {
  deleteCodesForEmail,
  findActiveUserByEmail,
  findActiveUserByEmailForms,
  findActiveUserByInviteCode,
  findUserById,
  findUserByIdForKeyShare,
  findUserByIdForNoKeyUpdate,
  findUserByIdForShare,
  insertDeletedEmail,
  insertUserUnlessTaken,
  isEmailDeleted,
  revokeSession,
  revokeUserSessions,
  selectActiveInviters,
  updateUser,
} from './auth.repository.js';
import type { UserRow } from './auth.tables.js';
import { attemptCode, checkCode, issueCode, releaseAttempt, useCode } from './codes.service.js';
import { emailDigest } from './digests.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { type Member, startSession } from './sessions.js';
import { refuseIfSuspended } from './suspension.js';

/** What a service needs to know about the request besides its payload. */
export interface RequestContext {
  ip: string;
  locale: Locale;
}

const HOUR_MS = 60 * 60_000;
/** Base32 without the look-alikes 0, 1, I and O: codes are read aloud and typed by hand. */
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const MAX_CODE_COLLISIONS = 5;
/** The reason and reference that make the exclusive sign-up grant once per account. */
export const EXCLUSIVE_SIGNUP_GRANT = { reason: 'exclusiveSignup', reference: 'signup' } as const;

/**
 * accounts issue: e-mails compare case-insensitively, stored lower-cased; since the red-team review
 * of 2026-11-30 in the contract's one canonical form (no trailing dot, punycode domain), which the
 * request schemas already produced: applied again here for callers that are not requests.
 */
function canonicalEmail(email: string): string {
  return normalizeEmail(email);
}

/**
 * The forms one address may have been stored in before the canonical form, the canonical one first:
 * a deleted account's ban hashed the address as the member had it (a trailing dot, an IDN domain in
 * Unicode), and an account migration 0046 could not rewrite is still found by them.
 */
function accountForms(email: string): string[] {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const unicode = domainToUnicode(domain);
  const domains = new Set([domain, `${domain}.`, ...(unicode ? [unicode, `${unicode}.`] : [])]);
  return [...domains].map((form) => `${local}@${form}`);
}

function randomCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The live account of this address in any of its stored forms. */
function findAccount(db: Executor, email: string): Promise<UserRow | undefined> {
  return findActiveUserByEmailForms(db, accountForms(canonicalEmail(email)));
}

function sessionExpired(): AppError {
  return new AppError(State.SessionExpired, 'sessionExpired');
}

/** The member's own row; a deleted account has no session left, but a race could get here. */
async function activeMember(db: Executor, member: Member): Promise<UserRow & { email: string }> {
  const user = await findUserById(db, member.userId);
  if (!user || user.deletedAt || !user.email) throw sessionExpired();
  return user as UserRow & { email: string };
}

// --- visitor calls

/** /elex/user/verifyEmail. A deleted account's address answers false (register then refuses it). */
export async function hasAccount(deps: AppDeps, rawEmail: string): Promise<{ hasEmail: boolean }> {
  return { hasEmail: (await findAccount(deps.db, rawEmail)) !== undefined };
}

/**
 * /elex/user/verifyCode. Login and reset answer the same for an unknown e-mail (a code is recorded,
 * no mail leaves) so the call does not reveal who has an account; register refuses a taken or deleted
 * address; module 3 sends to the calling member's own address.
 */
export async function requestCode(
  deps: AppDeps,
  input: {
    module: CodeModule;
    email: string | undefined;
    encr?: string | undefined;
    code?: string | undefined;
  },
  context: RequestContext,
  member: Member | null,
): Promise<{ resendAfterSeconds: number }> {
  if (input.module === CodeModule.OwnAddress) {
    if (!member) throw sessionExpired();
    const user = await activeMember(deps.db, member);
    return issueCode(deps, {
      ...context,
      email: user.email,
      module: input.module,
      sendMail: true,
      userId: user.id,
    });
  }
  if (input.email === undefined) throw AppError.refused('emailRequired');
  const email = canonicalEmail(input.email);
  const user = await findAccount(deps.db, email);
  if (input.module === CodeModule.Register) {
    await refuseTakenEmail(deps, email, user);
    // issue 11: a promotion code that cannot be used is refused before a mail goes out; issue 15: so
    // is an invite code nobody has (it was refused only after the code was typed).
    if (input.encr) await checkPromotionCode(deps.db, input.encr, deps.clock.now());
    if (input.code && !(await findActiveUserByInviteCode(deps.db, input.code.toUpperCase()))) {
      throw new AppError(State.Refused, 'inviteCodeUnknown', {}, { field: 'code' });
    }
    return issueCode(deps, { ...context, email, module: input.module, sendMail: true });
  }
  // issue 15: a login for an address without an account is told at once, with the way to register,
  // instead of "code sent" and a mail that never comes. It protects nothing to hide it: the public
  // verifyEmail call (spec section 7) answers whether an address is registered. Reset stays silent.
  if (input.module === CodeModule.Login && !user) {
    throw new AppError(
      State.Refused,
      'loginEmailNotRegistered',
      {},
      { messageKey: 'loginEmailNotRegistered' },
    );
  }
  // issue 12: a suspended account is told why before a login code is mailed that could not be used.
  if (input.module === CodeModule.Login && user) refuseIfSuspended(user);
  return issueCode(deps, {
    ...context,
    email,
    module: input.module,
    sendMail: user !== undefined,
    userId: user?.id,
  });
}

async function refuseTakenEmail(deps: AppDeps, email: string, user: UserRow | undefined) {
  // spec: the same e-mail cannot register again after deletion
  const hashes = accountForms(email).map((form) => emailDigest(deps.config.appSecret, form));
  if (await isEmailDeleted(deps.db, hashes)) {
    throw AppError.refused('emailDeleted');
  }
  if (user) throw AppError.refused('emailExists');
}

/** /elex/user/verifyCode2: checks a code without using it up (reset step 2); a wrong one counts. */
export async function verifyCodeOnly(
  deps: AppDeps,
  input: { email: string; module: CodeModule; authCode: string },
  member: Member | null,
): Promise<void> {
  let email = canonicalEmail(input.email);
  if (input.module === CodeModule.OwnAddress) {
    if (!member) throw sessionExpired();
    email = (await activeMember(deps.db, member)).email;
  }
  await checkCode(deps, { email, module: input.module, code: input.authCode });
}

export interface RegisterInput {
  email: string;
  password: string;
  inviteCode: string | undefined;
  code: string;
  encr: string | undefined;
  marketingConsent: boolean;
}

/**
 * /elex/user/register: creates the account, uses the code, counts the promotion code's use and opens
 * a session in one transaction.
 */
export async function register(
  deps: AppDeps,
  input: RegisterInput,
  context: RequestContext,
): Promise<{ token: string }> {
  const email = canonicalEmail(input.email);
  await refuseTakenEmail(deps, email, await findAccount(deps.db, email));
  // Checked before the code so that a typo in the invite code does not cost a code try.
  let inviterId: number | null = null;
  if (input.inviteCode) {
    const inviter = await findActiveUserByInviteCode(deps.db, input.inviteCode.toUpperCase());
    if (!inviter) throw AppError.refused('inviteCodeUnknown');
    inviterId = inviter.id;
  }
  // The same for the promotion code; its use is counted, under its cap, in the transaction below.
  if (input.encr) await checkPromotionCode(deps.db, input.encr, deps.clock.now());
  const codeId = await checkCode(deps, { email, module: CodeModule.Register, code: input.code });
  const passwordHash = await hashPassword(input.password);

  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // First, so a code that reached its cap (or was disabled) since the check refuses before any write.
    const signupEncr = input.encr ? await usePromotionCode(tx, input.encr, now) : null;
    // The inviter again, their row held `FOR SHARE` until commit (found in review, 2026-11-29): one who
    // deleted the account since the check above is refused as an unknown code (nothing written, the
    // mailed code unused), and a deletion that comes now waits for this registration (it locks the row
    // `FOR NO KEY UPDATE`), so the invite points land on a live member or nowhere. A suspension takes
    // the row `FOR UPDATE` too: a suspended inviter is seen here and earns no invite points.
    let inviterSuspended = false;
    if (inviterId !== null) {
      const inviter = await findUserByIdForShare(tx, inviterId);
      if (!inviter || inviter.deletedAt) throw AppError.refused('inviteCodeUnknown');
      inviterSuspended = inviter.suspendedAt !== null;
    }
    const user = await insertUser(tx, email, {
      passwordHash,
      inviterId,
      marketingConsent: input.marketingConsent,
      signupEncr,
      locale: context.locale,
      createdAt: now,
    });
    if (!(await useCode(tx, deps, codeId))) throw AppError.refused('codeInvalid');
    // Invite points for both members, in this transaction: an invited registration is rewarded or not at all.
    if (inviterId !== null) {
      await recordInvitation(tx, deps, { inviterId, friendId: user.id, at: now, inviterSuspended });
    }
    if (signupEncr) {
      // spec: exclusive sign-up, 1000 XME energy and 100 points, once per account
      await grantPoints(tx, {
        userId: user.id,
        currency: 'xme',
        amount: EXCLUSIVE_SIGNUP.xmeEnergy,
        ...EXCLUSIVE_SIGNUP_GRANT,
        at: now,
      });
      await grantPoints(tx, {
        userId: user.id,
        currency: 'points',
        amount: EXCLUSIVE_SIGNUP.points,
        ...EXCLUSIVE_SIGNUP_GRANT,
        at: now,
      });
    }
    return { token: await startSession(tx, deps, user.id) };
  });
}

/**
 * Inserts the user with fresh user and invite codes, drawing again on a collision. A taken e-mail
 * (a concurrent registration that committed first) answers 'emailExists'.
 */
async function insertUser(
  tx: Transaction,
  email: string,
  fields: Omit<Parameters<typeof insertUserUnlessTaken>[1], 'email' | 'userCode' | 'inviteCode'>,
): Promise<UserRow> {
  for (let attempt = 0; attempt < MAX_CODE_COLLISIONS; attempt += 1) {
    const user = await insertUserUnlessTaken(tx, {
      ...fields,
      email,
      userCode: `EX${randomCode(6)}`,
      inviteCode: randomCode(8),
    });
    if (user) return user;
    if (await findActiveUserByEmail(tx, email)) throw AppError.refused('emailExists');
  }
  throw new Error('no free user code after several draws');
}

/**
 * /elex/user/login. A wrong or used code answers 'codeInvalid' (spec section 5), an expired or
 * exhausted one its own refusal; only with the right code does a wrong e-mail or password answer
 * 'loginFailed'. This reveals no account: a code is recorded for an unknown e-mail too (none is
 * mailed), with the same cool-down, expiry and tries, so every code answer is the same for a stranger
 * and a member; and the password is compared (against a dummy hash for an unknown e-mail) only once
 * the code matched, which only the mailbox's owner can make happen. A failed login keeps its code try
 * counted, so one code allows at most five guesses of anything.
 */
export async function login(
  deps: AppDeps,
  input: { email: string; password: string; code: string },
  context: RequestContext,
): Promise<{ token: string }> {
  const email = canonicalEmail(input.email);
  const user = await findAccount(deps.db, email);
  const attempt = await attemptCode(deps, { email, module: CodeModule.Login, code: input.code });
  if (!attempt.matches) throw AppError.refused('codeInvalid');
  const passwordMatches = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordMatches) throw AppError.refused('loginFailed');
  refuseIfSuspended(user);

  return deps.db.transaction(async (tx) => {
    // A suspension committing since the look above revoked the sessions it saw: with the row held
    // FOR SHARE, it is seen here or waits until this session exists (and then revokes it too). So
    // does a password reset (red-team review, 2026-11-29): the password checked above must still be
    // the one stored, or the old password's holder would get a session the reset never revoked.
    const current = await findUserByIdForShare(tx, user.id);
    if (!current || !samePasswordAsChecked(current, user)) throw AppError.refused('loginFailed');
    refuseIfSuspended(current);
    // Another login with this code won the race: the code is used.
    if (!(await useCode(tx, deps, attempt.codeId))) throw AppError.refused('codeInvalid');
    // The try is given back only with the session (red-team review, 2026-11-30): a login refused above
    // keeps it counted, as a wrong password does, so the code allows no sixth guess.
    await releaseAttempt(deps, attempt, tx);
    if (user.locale !== context.locale) await updateUser(tx, user.id, { locale: context.locale });
    return { token: await startSession(tx, deps, user.id) };
  });
}

/**
 * /elex/user/changePasswd: a reset with a module-2 code. Revokes every session and locks withdrawals
 * for 72 h (spec section 9), and tells the owner by mail, all in one transaction.
 */
export async function resetPassword(
  deps: AppDeps,
  input: { email: string; code: string; password: string },
  context: RequestContext,
): Promise<void> {
  const email = canonicalEmail(input.email);
  const user = await findAccount(deps.db, email);
  const codeId = await checkCode(deps, { email, module: CodeModule.ResetPassword, code: input.code });
  // Unreachable unless the account was deleted since the code was sent: no mail went to unknown e-mails.
  if (!user) throw AppError.refused('codeInvalid');
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    if (!(await useCode(tx, deps, codeId))) throw AppError.refused('codeInvalid');
    await changePassword(tx, deps, user, passwordHash, 'reset', context.locale);
    await revokeUserSessions(tx, user.id, deps.clock.now());
  });
}

async function changePassword(
  tx: Transaction,
  deps: AppDeps,
  user: UserRow,
  passwordHash: string,
  kind: 'reset' | 'change',
  locale: Locale,
): Promise<Date> {
  const now = deps.clock.now();
  // spec: withdrawal restricted 72 hours after a password change or reset
  const withdrawalLockedUntil = new Date(now.getTime() + WITHDRAWAL.lockAfterPasswordChangeHours * HOUR_MS);
  await updateUser(tx, user.id, { passwordHash, withdrawalLockedUntil });
  if (user.email) {
    await enqueueMail(tx, deps, {
      template: 'passwordChanged',
      locale,
      to: user.email,
      params: { kind, at: now.toISOString(), withdrawalLockedUntil: withdrawalLockedUntil.toISOString() },
      userId: user.id,
    });
  }
  return withdrawalLockedUntil;
}

// --- member calls

/** /elex/user/updatePass: keeps the calling session, revokes the others, locks withdrawals 72 h. */
export async function updatePassword(
  deps: AppDeps,
  member: Member,
  input: { oldPassword: string; password: string },
  context: RequestContext,
): Promise<{ withdrawalLockedUntil: string }> {
  const user = await activeMember(deps.db, member);
  if (!(await verifyPassword(user.passwordHash, input.oldPassword))) throw passwordIncorrectForChange();
  const passwordHash = await hashPassword(input.password);
  const lockedUntil = await deps.db.transaction(async (tx) => {
    // A deletion committing while the new password was hashed leaves nothing to change, or to mail;
    // a reset (or another change) leaves a password the old one must not overwrite.
    await refuseUnlessPasswordStands(tx, user, passwordIncorrectForChange);
    const until = await changePassword(tx, deps, user, passwordHash, 'change', context.locale);
    await revokeUserSessions(tx, user.id, deps.clock.now(), member.sessionId);
    return until;
  });
  return { withdrawalLockedUntil: lockedUntil.toISOString() };
}

/** /elex/user/logout */
export async function logout(deps: AppDeps, member: Member): Promise<void> {
  await revokeSession(deps.db, member.sessionId, deps.clock.now());
}

/**
 * /elex/user/deleteAccount. Erases the personal data and keeps the row, so money records stay linked
 * but anonymous; remembers only a keyed hash of the address so it can never register again (spec
 * section 4). In the same transaction it ends the bindings, forfeits the money not withdrawn and
 * erases the XME and social ids (`endMemberHoldings`). The notice mail is queued first: its encrypted
 * copy of the address is all that remains, and the outbox erases it once sent.
 */
export async function deleteAccount(
  deps: AppDeps,
  member: Member,
  /** `forfeitTotal`: the USDT the member was shown they would lose (DeleteAccountRequestSchema). */
  input: { password: string; forfeitTotal: string },
  context: RequestContext,
  // Passed in by the route (deletion.ts's endMemberHoldings): it reaches the bindings, tasks, ledger
  // and withdrawals modules, several of which import this service, so importing it here would close
  // a loop of imports through them.
  endMemberHoldings: (
    tx: Transaction,
    userId: number,
    at: Date,
    shownForfeitMicro: bigint,
  ) => Promise<unknown>,
): Promise<void> {
  const user = await activeMember(deps.db, member);
  if (!(await verifyPassword(user.passwordHash, input.password))) throw AppError.refused('passwordIncorrect');
  const emailHash = emailDigest(deps.config.appSecret, user.email);
  await inMoneyTransaction(deps, async (tx) => {
    const now = deps.clock.now();
    // The ledger accounts before the user row, as every money path takes them (lockMemberRow).
    await endMemberHoldings(tx, user.id, now, toScaled(input.forfeitTotal, DECIMALS.usdt));
    // A second deletion (a double click) waited for the first's locks: it finds the member gone. A
    // reset since the password check leaves the account to the member who reset it.
    await refuseUnlessPasswordStands(tx, user, () => AppError.refused('passwordIncorrect'));
    // A code or a withdrawal mail still queued would reach the erased address after the notice.
    await dropPendingMailsOf(tx, user.id, 'account deleted before it was sent');
    await enqueueMail(tx, deps, {
      template: 'accountDeleted',
      locale: context.locale,
      to: user.email,
      params: { at: now.toISOString() },
      userId: user.id,
    });
    await insertDeletedEmail(tx, emailHash, now);
    await updateUser(tx, user.id, {
      email: null,
      passwordHash: null,
      marketingConsent: false,
      signupEncr: null,
      deletedAt: now,
    });
    await revokeUserSessions(tx, user.id, now);
    await deleteCodesForEmail(tx, emailHash);
  });
}

/** updatePass's wrong current password, naming the field so the page marks it rather than only saying it. */
function passwordIncorrectForChange(): AppError {
  return new AppError(State.Refused, 'passwordIncorrect', {}, { field: 'oldPasswd' });
}

/**
 * Whether the member's row, read under its lock in the writing transaction, still holds the password
 * hash that was verified before it (argon2 runs outside the lock, it is slow). The stored value is
 * compared, not the password re-hashed: a reset or change writes a fresh salt even for the same
 * password, and a deletion erases it.
 */
function samePasswordAsChecked(current: UserRow, checked: UserRow): boolean {
  return current.passwordHash !== null && current.passwordHash === checked.passwordHash;
}

/**
 * refuseUnlessStillMember for a call that verified the member's password before its transaction:
 * refused as a wrong password (`wrongPassword`, the call's own answer, so nothing tells a stranger a
 * reset happened) when the password changed since, which the row lock makes final until commit.
 */
async function refuseUnlessPasswordStands(
  tx: Transaction,
  checked: UserRow,
  wrongPassword: () => AppError,
): Promise<void> {
  const user = await lockMemberRow(tx, checked.id);
  if (!user || user.deletedAt) throw sessionExpired();
  if (!samePasswordAsChecked(user, checked)) throw wrongPassword();
}

/** getSettings answers kept per process, by member (db/member-answers.ts). */
const SETTINGS = answerKind<Settings>('settings', 20_000);

/**
 * /elex/user/getSettings. Kept in this process until the member's row changes what it shows (the
 * users trigger of migration 0051 notifies on the consent, the e-mail and a deletion).
 */
export async function getSettings(deps: AppDeps, member: Member): Promise<Settings> {
  return keptForMember(deps.memberAnswers, SETTINGS, member.userId, () => readSettings(deps, member));
}

async function readSettings(deps: AppDeps, member: Member): Promise<Settings> {
  const user = await activeMember(deps.db, member);
  // Frozen: a kept answer is every later call's answer.
  return Object.freeze({ marketingConsent: user.marketingConsent });
}

/** /elex/user/saveSettings */
export async function saveSettings(deps: AppDeps, member: Member, settings: Settings): Promise<Settings> {
  await activeMember(deps.db, member);
  await deps.db.transaction(async (tx) => {
    await refuseUnlessStillMember(tx, member.userId);
    await updateUser(tx, member.userId, { marketingConsent: settings.marketingConsent });
  });
  return { marketingConsent: settings.marketingConsent };
}

/**
 * The member's row locked for a change of it (lockMemberRow), refused as a lost session when the
 * account was deleted since the request's first look: a deletion commits its own row change first.
 */
async function refuseUnlessStillMember(tx: Transaction, userId: number): Promise<void> {
  const user = await lockMemberRow(tx, userId);
  if (!user || user.deletedAt) throw sessionExpired();
}

/**
 * What profile shows, as read: the withdrawal lock's stored end, not whether it is still ahead, which
 * each call decides against its own clock (a kept answer outlives the lock's end).
 */
interface StoredProfile {
  readonly shown: Omit<Profile, 'withdrawalLockedUntil'>;
  readonly withdrawalLockedUntil: Date | null;
}

/** profile answers kept per process, by member (db/member-answers.ts). */
const PROFILE = answerKind<StoredProfile>('profile', 20_000);

/**
 * /elex/user/profile: My Page's header. A lock that has passed shows as null. Kept in this process
 * until the member changes: the users trigger (migration 0051) notifies on every column shown and on
 * a deletion or suspension, the points_entries trigger on every points or XME entry.
 */
export async function getProfile(deps: AppDeps, member: Member): Promise<Profile> {
  const stored = await keptForMember(deps.memberAnswers, PROFILE, member.userId, () =>
    readProfile(deps, member),
  );
  return {
    ...stored.shown,
    withdrawalLockedUntil: activeLock(stored.withdrawalLockedUntil, deps.clock.now())?.toISOString() ?? null,
  };
}

async function readProfile(deps: AppDeps, member: Member): Promise<StoredProfile> {
  const user = await activeMember(deps.db, member);
  const { points, xme } = await balances(deps.db, user.id);
  return Object.freeze({
    shown: Object.freeze({
      email: user.email,
      userCode: user.userCode,
      inviteCode: user.inviteCode,
      points,
      xmeEnergy: xme,
      createdAt: user.createdAt.toISOString(),
    }),
    withdrawalLockedUntil: user.withdrawalLockedUntil,
  });
}

/** A withdrawal lock's end while it is still ahead, else null (a lock that has passed is no lock). */
export function activeLock(until: Date | null, now: Date): Date | null {
  return until && until.getTime() > now.getTime() ? until : null;
}

// --- for other modules (withdrawals, invites, mails about money)

/** When withdrawals open again after a password change or reset, or null when they are open. */
export async function withdrawalLockedUntil(deps: AppDeps, userId: number): Promise<Date | null> {
  const user = await findUserById(deps.db, userId);
  return activeLock(user?.withdrawalLockedUntil ?? null, deps.clock.now());
}

/** Whether an operator suspended the member (no login, no withdrawal). */
export async function isSuspended(deps: AppDeps, userId: number): Promise<boolean> {
  return Boolean((await findUserById(deps.db, userId))?.suspendedAt);
}

/**
 * The same lock, read in the transaction that moves the member's money with the user row held
 * `FOR SHARE` until it commits: a password change or reset that committed first is seen here, and one
 * that comes later waits for this transaction (its UPDATE needs the row). No withdrawal slips in
 * between a check and the hold.
 */
export async function withdrawalLockedUntilInTransaction(
  tx: Transaction,
  userId: number,
  now: Date,
): Promise<Date | null> {
  const user = await findUserByIdForShare(tx, userId);
  // issue 12: a member suspended since the first look cannot move money either.
  if (user?.suspendedAt) throw AppError.refused('withdrawalSuspended');
  return activeLock(user?.withdrawalLockedUntil ?? null, now);
}

/**
 * The member's row locked until the transaction ends (undefined: no such member): an operator's
 * booking on a member's money that must see every other one of them in order (corrections, a
 * dispute's move to them). Always after the ledger accounts it concerns, the order every money path
 * takes: a withdrawal locks its accounts and then reads this row `FOR SHARE`, a deletion locks the
 * member's accounts and then updates it; taking the row first would deadlock against either. `FOR NO
 * KEY UPDATE`, so settlement, which writes rows referencing the member under its account locks, never
 * waits for it.
 */
export function lockMemberRow(tx: Transaction, userId: number): Promise<UserRow | undefined> {
  return findUserByIdForNoKeyUpdate(tx, userId);
}

/** The member as a check that must see a deletion committed first and hold off one coming after. */
export function holdMemberKey(tx: Executor, userId: number): Promise<UserRow | undefined> {
  return findUserByIdForKeyShare(tx, userId);
}

/**
 * Refuses, as a lost session (-5000), a member whose account was deleted since their session was
 * checked: a plain read, for a transaction that already takes turns with the deletion by a lock of its
 * own (a support request, `lockRequestsOfMember`).
 */
export async function refuseDeletedMember(db: Executor, userId: number): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user || user.deletedAt) throw sessionExpired();
}

/** A member's invite code (the invites module's link and code calls). */
export async function inviteCodeOf(db: Executor, userId: number): Promise<string> {
  const user = await findUserById(db, userId);
  if (!user || user.deletedAt) throw sessionExpired();
  return user.inviteCode;
}

/** Per member, the member who invited them while that account exists; members without one are absent (invite bonuses). */
export function activeInvitersOf(db: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
  return selectActiveInviters(db, userIds);
}

/** Where and in which language to write to a member; null for a deleted account. */
export async function memberContact(
  db: Executor,
  userId: number,
): Promise<{ email: string; locale: Locale } | null> {
  const user = await findUserById(db, userId);
  if (!user?.email || user.deletedAt) return null;
  return { email: user.email, locale: user.locale as Locale };
}

/**
 * Checks a module-3 code sent to the member's own address (e.g. to confirm a withdrawal). The caller
 * then uses it up with `useCode(tx, deps, codeId)` in the transaction of its own change.
 */
export async function checkOwnAddressCode(deps: AppDeps, member: Member, code: string): Promise<number> {
  const user = await activeMember(deps.db, member);
  return checkCode(deps, { email: user.email, module: CodeModule.OwnAddress, code });
}

export { useCode } from './codes.service.js';

export interface MemberIdentity {
  email: string | null;
  userCode: string;
  createdAt: Date;
  suspendedAt: Date | null;
}

/**
 * Who these members are, for operators (the withdrawal queue): e-mail (null once deleted), user code
 * when they joined and whether they are suspended. Unknown ids are left out.
 */
export async function memberIdentities(
  db: Executor,
  userIds: readonly number[],
): Promise<Map<number, MemberIdentity>> {
  const identities = new Map<number, MemberIdentity>();
  for (const id of new Set(userIds)) {
    const user = await findUserById(db, id);
    if (user) {
      identities.set(id, {
        email: user.email,
        userCode: user.userCode,
        createdAt: user.createdAt,
        suspendedAt: user.suspendedAt,
      });
    }
  }
  return identities;
}

// What other modules may use of the accounts' rows: housekeeping's pruning, the console's and the demo
// seed's look-ups (through this service, not the repository: docs/architecture.md, "Boundaries").
export {
  deleteCodesExpiredBefore,
  deleteSessionsEndedBefore,
  findActiveUserByEmail,
  findUserById,
  insertUserUnlessTaken,
} from './auth.repository.js';

/** A live (not deleted) account by e-mail in any of its forms (e-mails are stored canonical). */
export function liveAccountByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return findAccount(db, email);
}
