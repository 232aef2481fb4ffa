import { CodeModule, EXCLUSIVE_SIGNUP, State, translate } from '@elex/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, pointsEntries, promotionCodes, users, verificationCodes } from '../../db/schema.js';
import { deferred } from '../../test/deferred.js';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { call, nextEmail, nextIp, PASSWORD, readCode, requestCode, signUp } from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { changePromotionCode } from './promotions.service.js';
import { givePromotionCode } from './test-support.js';

let ctx: CashbackTestContext;
let operator: Caller;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
  operator = await newOperator(ctx);
}, 60_000);
afterAll(() => ctx.close());

const REFUSALS = {
  unknown: 'This exclusive sign-up code does not exist. You can register without it.',
  expired: 'This exclusive sign-up code has expired. You can register without it.',
  disabled: 'This exclusive sign-up code is no longer valid. You can register without it.',
  usedUp: 'This exclusive sign-up code has reached its sign-up limit. You can register without it.',
} as const;

function refusal(reason: keyof typeof REFUSALS) {
  return { state: State.Refused, message: REFUSALS[reason], content: { encrRefused: reason } };
}

async function rowCount(table: typeof mailOutbox | typeof verificationCodes | typeof users) {
  const [row] = await ctx.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

/** What a refused request must leave as it was: mails, codes and accounts. */
async function writes() {
  return {
    mails: await rowCount(mailOutbox),
    codes: await rowCount(verificationCodes),
    users: await rowCount(users),
  };
}

async function signupsOf(code: string) {
  const [row] = await ctx.db.select().from(promotionCodes).where(eq(promotionCodes.code, code));
  return row?.signups;
}

async function bonusesOf(email: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  if (!user) return null;
  const rows = await ctx.db
    .select()
    .from(pointsEntries)
    .where(and(eq(pointsEntries.userId, user.id), eq(pointsEntries.reason, 'exclusiveSignup')));
  return rows.map((row) => `${row.currency}:${row.amount}`).sort();
}

/** Asks for a register code carrying the encr, as the register page does. */
async function askCode(email: string, encr: string, lang?: string) {
  return requestCode(ctx, CodeModule.Register, email, lang ? { lang } : {}, { encr });
}

async function register(email: string, authcode: string, encr?: string) {
  const body = { email, passwd: PASSWORD, authcode, ...(encr === undefined ? {} : { encr }) };
  return (await call(ctx, '/elex/user/register', body)).json();
}

async function checkEncr(encr: unknown, lang?: string) {
  return (await call(ctx, '/elex/user/checkEncr', { encr }, lang ? { lang } : {})).json();
}

async function listed(code: string) {
  const answer = await adminCall(ctx, operator, 'promotionCodes', { pageSize: 100 });
  expect(answer.state).toBe(0);
  return (answer.content.rows as Array<{ code: string }>).find((row) => row.code === code) as
    | Record<string, unknown>
    | undefined;
}

describe('an encr code that cannot be used is refused before the code mail is sent', () => {
  it('refuses an unknown code (issue 11: BOGUS777) without writing a code or a mail', async () => {
    const before = await writes();
    const email = nextEmail();
    expect(await askCode(email, 'BOGUS777')).toEqual(refusal('unknown'));
    expect(await writes()).toEqual(before);
    expect(await checkEncr('BOGUS777')).toEqual(refusal('unknown'));
  });

  it('answers in the caller language', async () => {
    expect((await askCode(nextEmail(), 'BOGUS777', 'zh')).message).toBe(
      '该专属注册码不存在。您可以不使用它直接注册。',
    );
    expect((await checkEncr('BOGUS777', 'ko')).message).toBe(
      '존재하지 않는 전용 가입 코드입니다. 코드 없이 가입할 수 있습니다.',
    );
  });

  it('refuses a disabled code, and takes it again once enabled', async () => {
    const code = await givePromotionCode(ctx, 'PAUSED-PROMO');
    const off = await adminCall(ctx, operator, 'updatePromotionCode', {
      id: code.id,
      updatedAt: code.updatedAt.toISOString(),
      disabled: true,
    });
    expect(off).toMatchObject({ state: 0, content: { status: 'disabled' } });
    const before = await writes();
    expect(await askCode(nextEmail(), 'paused-promo')).toEqual(refusal('disabled'));
    expect(await checkEncr('PAUSED-PROMO')).toEqual(refusal('disabled'));
    expect(await writes()).toEqual(before);

    const on = await adminCall(ctx, operator, 'updatePromotionCode', {
      id: code.id,
      updatedAt: off.content.updatedAt,
      disabled: false,
    });
    expect(on).toMatchObject({ state: 0, content: { status: 'active', disabledAt: null } });
    expect(await checkEncr('PAUSED-PROMO')).toEqual({ state: 0, message: 'OK', content: null });
  });

  it('takes a code through its last valid day (UTC) and refuses it from the next', async () => {
    await givePromotionCode(ctx, 'LAST-DAY', { validThrough: '2026-06-01' });
    expect((await checkEncr('LAST-DAY')).state).toBe(0);
    const at = ctx.clock.now();
    ctx.clock.set(new Date('2026-06-02T00:00:00Z'));
    try {
      const before = await writes();
      expect(await askCode(nextEmail(), 'LAST-DAY')).toEqual(refusal('expired'));
      expect(await writes()).toEqual(before);
      expect(await listed('LAST-DAY')).toMatchObject({ validThrough: '2026-06-01', status: 'expired' });
    } finally {
      ctx.clock.set(at);
    }
  });

  it('refuses a code whose cap is reached', async () => {
    await givePromotionCode(ctx, 'ONLY-ONE', { maxUses: 1 });
    await signUp(ctx, nextEmail(), { encr: 'ONLY-ONE' });
    const before = await writes();
    expect(await askCode(nextEmail(), 'ONLY-ONE')).toEqual(refusal('usedUp'));
    expect(await writes()).toEqual(before);
    expect(await listed('ONLY-ONE')).toMatchObject({ signups: 1, maxUses: 1, status: 'usedUp' });
  });

  it('refuses a malformed check with the field named', async () => {
    expect(await checkEncr('')).toMatchObject({ state: State.ValidationFailed });
    expect(await checkEncr('x'.repeat(65))).toMatchObject({ state: State.ValidationFailed });
  });
});

describe('registering with an encr code', () => {
  it('grants the bonus once, in any letter case, and the console counts the sign-up', async () => {
    await givePromotionCode(ctx, 'WELCOME-2026');
    const email = nextEmail();
    await signUp(ctx, email, { encr: 'welcome-2026' });
    expect(await bonusesOf(email)).toEqual([
      `points:${EXCLUSIVE_SIGNUP.points}`,
      `xme:${EXCLUSIVE_SIGNUP.xmeEnergy}`,
    ]);
    const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
    expect(user?.signupEncr).toBe('WELCOME-2026');
    expect(await listed('WELCOME-2026')).toMatchObject({ signups: 1, status: 'active' });
  });

  it('refuses a code spent after the mail, writes nothing, and the same mailed code registers without it', async () => {
    const code = await givePromotionCode(ctx, 'SPENT-MEANWHILE', { maxUses: 5 });
    const email = nextEmail();
    expect((await askCode(email, 'SPENT-MEANWHILE')).state).toBe(0);
    const authcode = await readCode(ctx, email);
    expect(
      await adminCall(ctx, operator, 'updatePromotionCode', {
        id: code.id,
        updatedAt: code.updatedAt.toISOString(),
        disabled: true,
      }),
    ).toMatchObject({ state: 0 });

    const usersBefore = await rowCount(users);
    expect(await register(email, authcode, 'SPENT-MEANWHILE')).toEqual(refusal('disabled'));
    expect(await rowCount(users)).toBe(usersBefore);
    expect(await signupsOf('SPENT-MEANWHILE')).toBe(0);

    // The code was not used up: the visitor removes the promotion code and registers with it.
    expect(await register(email, authcode)).toMatchObject({ state: 0 });
    expect(await bonusesOf(email)).toEqual([]);
    expect(await signupsOf('SPENT-MEANWHILE')).toBe(0);
  });

  it('refuses an unknown code at registration too (a client that skipped the check)', async () => {
    const email = nextEmail();
    expect((await requestCode(ctx, CodeModule.Register, email)).state).toBe(0);
    const authcode = await readCode(ctx, email);
    const usersBefore = await rowCount(users);
    expect(await register(email, authcode, 'BOGUS777')).toEqual(refusal('unknown'));
    expect(await rowCount(users)).toBe(usersBefore);
  });

  it('gives exactly N bonuses when many register at once with a code capped at N', async () => {
    const cap = 3;
    const racers = 10;
    await givePromotionCode(ctx, 'RACE-CAP', { maxUses: cap });
    const entrants: Array<{ email: string; authcode: string; ip: string }> = [];
    for (let index = 0; index < racers; index += 1) {
      const email = nextEmail('racer');
      const ip = nextIp();
      expect((await requestCode(ctx, CodeModule.Register, email, { ip }, { encr: 'RACE-CAP' })).state).toBe(
        0,
      );
      entrants.push({ email, ip, authcode: await readCode(ctx, email) });
    }
    const answers = await Promise.all(
      entrants.map(async ({ email, authcode, ip }) =>
        (
          await call(
            ctx,
            '/elex/user/register',
            { email, passwd: PASSWORD, authcode, encr: 'RACE-CAP' },
            { ip },
          )
        ).json(),
      ),
    );
    expect(answers.filter((answer) => answer.state === 0)).toHaveLength(cap);
    const refused = answers.filter((answer) => answer.state !== 0);
    expect(refused).toHaveLength(racers - cap);
    for (const answer of refused) expect(answer).toEqual(refusal('usedUp'));

    expect(await signupsOf('RACE-CAP')).toBe(cap);
    const granted = await ctx.db
      .select({ userId: users.id })
      .from(users)
      .where(eq(users.signupEncr, 'RACE-CAP'));
    expect(granted).toHaveLength(cap);
    let bonuses = 0;
    for (const { email } of entrants) {
      const entries = await bonusesOf(email);
      if (entries && entries.length > 0) bonuses += 1;
    }
    expect(bonuses).toBe(cap);
    // The refused registered nothing.
    const accounts = await Promise.all(
      entrants.map(({ email }) => ctx.db.select().from(users).where(eq(users.email, email))),
    );
    expect(accounts.filter((rows) => rows.length > 0)).toHaveLength(cap);
  }, 60_000);
});

describe('the console: /elex/admin/promotionCodes, createPromotionCode, updatePromotionCode', () => {
  async function auditOf(id: number) {
    const answer = await adminCall(ctx, operator, 'auditLog', { target: `promotion:${id}` });
    return answer.content.rows as Array<{ action: string; actor: string; before: unknown; after: unknown }>;
  }

  it('creates a code upper-cased, lists it with its creator and audits it', async () => {
    const answer = await adminCall(ctx, operator, 'createPromotionCode', {
      code: ' autumn-x ',
      note: 'Partner newsletter',
      validThrough: '2026-09-30',
      maxUses: '500',
    });
    expect(answer).toMatchObject({
      state: 0,
      message: 'Promotion code AUTUMN-X created',
      content: {
        code: 'AUTUMN-X',
        note: 'Partner newsletter',
        createdBy: operator.email,
        validThrough: '2026-09-30',
        maxUses: 500,
        signups: 0,
        disabledAt: null,
        status: 'active',
      },
    });
    const [newest] = (await adminCall(ctx, operator, 'promotionCodes', {})).content.rows;
    expect(newest).toEqual(answer.content);
    expect(await auditOf(answer.content.id)).toEqual(
      [{ action: 'promotion.create', actor: operator.email, before: null, after: answer.content }].map(
        (entry) => expect.objectContaining(entry),
      ),
    );
  });

  it('takes no cap and no end when those fields are empty', async () => {
    const answer = await adminCall(ctx, operator, 'createPromotionCode', {
      code: 'OPEN-ENDED',
      note: '',
      validThrough: '',
      maxUses: '',
    });
    expect(answer).toMatchObject({ state: 0, content: { validThrough: null, maxUses: null } });
  });

  it('refuses a taken code in any letter case, a bad code, a past day and a bad cap, writing nothing', async () => {
    await givePromotionCode(ctx, 'TAKEN-ONE');
    const cases: Array<[object, string]> = [
      [{ code: 'taken-one' }, 'A promotion code with this name already exists'],
      [{ code: 'no spaces' }, 'code: Use 3 to 32 letters, digits, - or _, starting with a letter or digit'],
      [{ code: 'AB' }, 'code: Use 3 to 32 letters, digits, - or _, starting with a letter or digit'],
      [{ code: '-LEADING' }, 'code: Use 3 to 32 letters, digits, - or _, starting with a letter or digit'],
      [{ code: 'PAST-DAY', validThrough: '2026-05-31' }, 'The last valid day cannot be before today (UTC)'],
      [{ code: 'BAD-DAY', validThrough: '2026-02-30' }, 'validThrough: invalid value'],
      [
        { code: 'ZERO-CAP', maxUses: 0 },
        'maxUses: Enter a whole number of sign-ups from 1 to 1,000,000, or leave it empty for no cap',
      ],
      [
        { code: 'HALF-CAP', maxUses: '1.5' },
        'maxUses: Enter a whole number of sign-ups from 1 to 1,000,000, or leave it empty for no cap',
      ],
      [
        { code: 'TEXT-CAP', maxUses: 'many' },
        'maxUses: Enter a whole number of sign-ups from 1 to 1,000,000, or leave it empty for no cap',
      ],
    ];
    const before = await ctx.db.select().from(promotionCodes);
    for (const [body, message] of cases) {
      const answer = await adminCall(ctx, operator, 'createPromotionCode', body);
      expect({ body, message: answer.message, content: answer.content }).toEqual({
        body,
        message,
        content: null,
      });
    }
    expect(await ctx.db.select().from(promotionCodes)).toEqual(before);
  });

  it('edits the note, the last day and the cap, audited with before and after', async () => {
    const code = await givePromotionCode(ctx, 'EDIT-ME', { maxUses: 2 });
    await signUp(ctx, nextEmail(), { encr: 'EDIT-ME' });
    await signUp(ctx, nextEmail(), { encr: 'EDIT-ME' });
    expect((await checkEncr('EDIT-ME')).content).toEqual({ encrRefused: 'usedUp' });

    const updatedAt = code.updatedAt.toISOString();
    const below = await adminCall(ctx, operator, 'updatePromotionCode', {
      id: code.id,
      updatedAt,
      maxUses: 1,
    });
    expect(below).toEqual({
      state: State.Refused,
      message: 'The cap cannot be lower than the 2 sign-ups already made',
      content: null,
    });
    const past = await adminCall(ctx, operator, 'updatePromotionCode', {
      id: code.id,
      updatedAt,
      validThrough: '2026-01-01',
    });
    expect(past.message).toBe('The last valid day cannot be before today (UTC)');

    const raised = await adminCall(ctx, operator, 'updatePromotionCode', {
      id: code.id,
      updatedAt,
      maxUses: 3,
      note: 'Raised for the second wave',
      validThrough: '2026-07-15',
    });
    expect(raised).toMatchObject({
      state: 0,
      message: 'Saved successfully',
      content: {
        maxUses: 3,
        signups: 2,
        note: 'Raised for the second wave',
        validThrough: '2026-07-15',
        status: 'active',
      },
    });
    expect((await checkEncr('EDIT-ME')).state).toBe(0);
    const [entry] = await auditOf(code.id);
    expect(entry).toMatchObject({
      action: 'promotion.update',
      actor: operator.email,
      before: { maxUses: 2, signups: 2, status: 'usedUp', validThrough: null },
      after: { maxUses: 3, signups: 2, status: 'active', validThrough: '2026-07-15' },
    });
    // Refused edits wrote no entry.
    expect(await auditOf(code.id)).toHaveLength(1);
  });

  it('refuses a change built on a version another operator changed since, saving nothing; the current version saves', async () => {
    const other = await newOperator(ctx);
    const code = await givePromotionCode(ctx, 'TWO-DESKS', { maxUses: 50 });
    expect(
      await adminCall(ctx, other, 'updatePromotionCode', {
        id: code.id,
        updatedAt: code.updatedAt.toISOString(),
        disabled: true,
      }),
    ).toMatchObject({ state: 0 });
    const stored = async () =>
      (await ctx.db.select().from(promotionCodes).where(eq(promotionCodes.id, code.id)))[0];
    // Both load the list: the code is paused.
    const mine = await listed('TWO-DESKS');
    expect(mine).toMatchObject({ status: 'disabled', updatedAt: expect.any(String) });
    // The other operator finds fraud on it: a low cap, a note saying why, still disabled.
    const theirs = await adminCall(ctx, other, 'updatePromotionCode', {
      id: code.id,
      updatedAt: mine?.updatedAt,
      note: 'Fraud ring: do not enable',
      validThrough: '',
      maxUses: '1',
    });
    expect(theirs).toMatchObject({ state: 0, content: { note: 'Fraud ring: do not enable', maxUses: 1 } });
    // The clock stands still: the version moved all the same.
    expect(theirs.content.updatedAt).not.toBe(mine?.updatedAt);
    const afterTheirs = await stored();
    const entries = (await auditOf(code.id)).length;

    // My dialog, opened before, sends note, last day and cap together: it would set theirs back.
    const myDialog = {
      id: code.id,
      updatedAt: mine?.updatedAt,
      note: 'Autumn newsletter',
      validThrough: '2026-09-30',
      maxUses: '500',
    };
    for (const lang of ['zh', 'en', 'ko'] as const) {
      expect(await adminCall(ctx, operator, 'updatePromotionCode', myDialog, lang)).toEqual({
        state: State.Refused,
        message: translate(lang, 'promotionCodeEditedMeanwhile'),
        content: null,
      });
    }
    // My switch, on the row as I loaded it (paused), would enable the code they stopped: refused too.
    expect(
      await adminCall(ctx, operator, 'updatePromotionCode', {
        id: code.id,
        updatedAt: mine?.updatedAt,
        disabled: false,
      }),
    ).toMatchObject({ state: State.Refused, message: translate('en', 'promotionCodeEditedMeanwhile') });
    expect(await stored()).toEqual(afterTheirs);
    expect(await checkEncr('TWO-DESKS')).toEqual(refusal('disabled'));
    expect(await auditOf(code.id)).toHaveLength(entries);
    // Without a version: refused, naming the field.
    const { updatedAt: _version, ...unversioned } = myDialog;
    expect(await adminCall(ctx, operator, 'updatePromotionCode', unversioned)).toMatchObject({
      state: State.ValidationFailed,
      message: 'updatedAt: this field is required',
    });
    expect(await stored()).toEqual(afterTheirs);

    // Reloaded, I see their note and change what I meant on top of it; audited under my name.
    const reloaded = await listed('TWO-DESKS');
    expect(reloaded).toMatchObject({
      note: 'Fraud ring: do not enable',
      updatedAt: theirs.content.updatedAt,
    });
    const mineNow = await adminCall(ctx, operator, 'updatePromotionCode', {
      id: code.id,
      updatedAt: reloaded?.updatedAt,
      note: 'Fraud ring: do not enable (checked)',
      validThrough: '',
      maxUses: '1',
    });
    expect(mineNow).toMatchObject({
      state: 0,
      content: { note: 'Fraud ring: do not enable (checked)', maxUses: 1, status: 'disabled' },
    });
    const [entry] = await auditOf(code.id);
    expect(entry).toMatchObject({
      action: 'promotion.update',
      actor: operator.email,
      before: { note: 'Fraud ring: do not enable', updatedAt: theirs.content.updatedAt },
      after: { note: 'Fraud ring: do not enable (checked)', updatedAt: mineNow.content.updatedAt },
    });
    expect(await listed('TWO-DESKS')).toEqual(mineNow.content);
  });

  it('takes a change whose version only a sign-up moved on from: a sign-up is no operator change', async () => {
    const code = await givePromotionCode(ctx, 'BUSY-CODE', { maxUses: 10 });
    const loaded = await listed('BUSY-CODE');
    await signUp(ctx, nextEmail(), { encr: 'BUSY-CODE' });
    expect(
      await adminCall(ctx, operator, 'updatePromotionCode', {
        id: code.id,
        updatedAt: loaded?.updatedAt,
        maxUses: '20',
      }),
    ).toMatchObject({ state: 0, content: { maxUses: 20, signups: 1 } });
  });

  // PGlite is one connection: nothing there can hold the row while a change runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "a change sent while another operator's is running waits for it, then is refused on its version",
    async () => {
      const code = await givePromotionCode(ctx, 'IN-FLIGHT', { maxUses: 10 });
      const version = code.updatedAt.toISOString();
      // Their switch is running: the code is being disabled, not committed yet.
      const held = deferred();
      const released = deferred();
      const theirs = ctx.db.transaction(async (tx) => {
        const change = await changePromotionCode(tx, code.id, { disabled: true }, version, ctx.clock.now());
        held.resolve();
        await released.promise;
        return change;
      });
      await held.promise;
      // My dialog, opened on the version they are building on, saves note, last day and cap.
      const mine = adminCall(ctx, operator, 'updatePromotionCode', {
        id: code.id,
        updatedAt: version,
        note: 'Second wave',
        validThrough: '',
        maxUses: '20',
      });
      const waited = await Promise.race([
        mine,
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 1 s'), 1_000)),
      ]);
      expect(waited).toBe('still waiting after 1 s');
      released.resolve();
      await theirs;
      expect(await mine).toMatchObject({
        state: State.Refused,
        message: translate('en', 'promotionCodeEditedMeanwhile'),
      });
      expect(await listed('IN-FLIGHT')).toMatchObject({ status: 'disabled', maxUses: 10, note: '' });
      expect(await auditOf(code.id)).toEqual([]);
    },
  );

  it('answers 1004 for an unknown id', async () => {
    const unknown = { id: 999_999, updatedAt: '2026-06-01T12:00:00.000Z', disabled: true };
    expect(await adminCall(ctx, operator, 'updatePromotionCode', unknown)).toEqual({
      state: State.NotFound,
      message: 'Not found',
      content: null,
    });
  });
});
