import { CodeModule, LOCALES } from '@elex/contract';
import { describe, expect, it } from 'vitest';
import { type MailParams, type MailTemplate, renderMail } from './templates.js';

const PRODUCT = { en: 'Elex Cashback', zh: 'Elex 返佣', ko: 'Elex 캐시백' } as const;
const AT = '2026-01-15T12:00:00.000Z';
const WITHDRAWAL = {
  amount: '120.50',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  exchange: 'Bitget',
  uid: '40512345',
  at: AT,
};
const SAMPLES: { [T in MailTemplate]: MailParams[T] } = {
  verificationCode: { code: '042517', module: CodeModule.ResetPassword, validMinutes: 10 },
  passwordChanged: { kind: 'reset', at: AT, withdrawalLockedUntil: '2026-01-18T12:00:00.000Z' },
  accountDeleted: { at: AT },
  withdrawalRequested: { ...WITHDRAWAL, reviewHours: 48 },
  withdrawalCompleted: { ...WITHDRAWAL, txHash: `0x${'ab'.repeat(32)}` },
  withdrawalRejected: { ...WITHDRAWAL, reason: 'The address <is> not on Polygon' },
  uidListed: { exchange: 'Bitget', platId: 4, uid: '40512345' },
  supportAnswered: {
    requestId: 12,
    kind: 'uidBoundByOther',
    uid: '40512345',
    text: 'Please send a screenshot <of> your account page.',
    resolution: null,
  },
  uidDisputeNotice: { exchange: 'Bitget', platId: 4, uid: '40512345', event: 'opened', stillFrozen: false },
  alertWithdrawalRequested: { ...WITHDRAWAL, withdrawalId: 7, memberId: 12 },
  alertSyncFailing: { exchange: 'Bitget', platId: 4, failures: 3, since: AT, error: 'HTTP 503' },
  alertLedgerBroken: {
    source: 'daily',
    at: AT,
    problems: [{ invariant: 'all lines sum to zero', detail: 'sum 5' }],
  },
  alertDailySummary: {
    day: '2026-01-14',
    newMembers: 3,
    withdrawalsRequested: { count: 2, amount: '120.500000' },
    withdrawalsPaid: { count: 1, amount: '60.000000' },
    commissionImported: '812.345678',
    pendingWithdrawals: { count: 4, amount: '300.000000' },
    syncs: [{ exchange: 'Bitget', status: 'failed', finishedAt: AT, lastSuccessAt: null }],
  },
  alertPayoutWalletShort: {
    short: 'usdt',
    address: '0x1234567890AbcdEF1234567890aBcdef12345678',
    held: '100.000000',
    needed: '160.500000',
    awaiting: 3,
    at: AT,
  },
  alertPayoutStuck: {
    reason: 'feeCeiling',
    payoutId: 7,
    withdrawalId: 12,
    amount: '75.000000',
    to: '0x1234567890AbcdEF1234567890aBcdef12345678',
    nonce: 41,
    txHash: `0x${'ab'.repeat(32)}`,
    offeredGwei: '1000',
    askedGwei: '1850.5',
    ceilingGwei: '1000',
    error: null,
    since: AT,
    at: AT,
  },
  alertClockSkew: { host: 'app-2', skewMs: -5_012, thresholdMs: 2_000, instanceAt: AT, at: AT },
};

describe('mail templates', () => {
  for (const locale of LOCALES) {
    for (const template of Object.keys(SAMPLES) as MailTemplate[]) {
      it(`renders ${template} in ${locale} as text and HTML with the product name`, () => {
        const mail = renderMail(template, locale, SAMPLES[template], 'https://cashback.example.com');
        expect(mail.subject.length).toBeGreaterThan(5);
        expect(mail.text).toContain(PRODUCT[locale]);
        expect(mail.html).toContain(PRODUCT[locale]);
        expect(mail.html).toContain(`<html lang="${locale}">`);
        expect(mail.text).not.toMatch(/undefined|\{\{|\[object/);
        expect(mail.html).not.toMatch(/undefined|\{\{|\[object/);
      });
    }
  }

  it('names the exchange and UID that can now be bound and links the binding page filled in', () => {
    const mail = renderMail('uidListed', 'ko', SAMPLES.uidListed, 'https://cashback.example.com');
    expect(mail.subject).toBe('Bitget UID 40512345를 이제 연동할 수 있습니다');
    expect(mail.text).toContain('https://cashback.example.com/uidlinking?platId=4&uid=40512345');
    expect(mail.html).toContain('href="https://cashback.example.com/uidlinking?platId=4&amp;uid=40512345"');
  });

  it("quotes the operator's answer (escaped in HTML), says a decision, and links the thread", () => {
    const answered = renderMail('supportAnswered', 'en', SAMPLES.supportAnswered, 'https://x.example');
    expect(answered.subject).toBe('Your support request #12 has an answer');
    expect(answered.text).toContain('Please send a screenshot <of> your account page.');
    expect(answered.html).toContain('screenshot &lt;of&gt; your');
    expect(answered.text).toContain('https://x.example/mypage/support/12');
    const moved = renderMail(
      'supportAnswered',
      'zh',
      { ...SAMPLES.supportAnswered, text: null, resolution: 'moved' },
      'https://x.example',
    );
    expect(moved.text).toContain('已连同余额绑定到您的账户');
  });

  it('tells the holder of a disputed UID it is frozen and how to answer, and each decision, never who disputed', () => {
    const notice = (event: MailParams['uidDisputeNotice']['event'], stillFrozen = false) =>
      renderMail(
        'uidDisputeNotice',
        'en',
        { ...SAMPLES.uidDisputeNotice, event, stillFrozen },
        'https://x.example',
      );
    const opened = notice('opened');
    expect(opened.subject).toBe('Your Bitget UID 40512345 is under an ownership review');
    expect(opened.text).toContain('its cashback cannot be withdrawn');
    expect(opened.text).toContain(
      'https://x.example/mypage/support/new?kind=ownership&platId=4&uid=40512345',
    );
    const moved = notice('moved');
    expect(moved.subject).toBe('The ownership review of your Bitget UID 40512345 is decided');
    expect(moved.text).toContain('no longer bound to your account');
    // Once moved, what they can file is a dispute of their own.
    expect(moved.text).toContain('/mypage/support/new?kind=uidBoundByOther&platId=4&uid=40512345');
    expect(notice('closed').text).toContain('Its withdrawals are no longer frozen.');
    expect(notice('verified', true).text).toContain('its withdrawals stay frozen until that one is decided');
    expect(notice('verified', true).text).not.toContain('no longer frozen');
    const korean = renderMail('uidDisputeNotice', 'ko', SAMPLES.uidDisputeNotice, 'https://x.example');
    expect(korean.subject).toBe('회원님의 Bitget UID 40512345에 대한 소유권 검토가 진행 중입니다');
  });

  it('puts the code in the subject, the text and the HTML, with leading zeros kept', () => {
    const mail = renderMail('verificationCode', 'en', SAMPLES.verificationCode, 'https://x.example');
    expect(mail.subject).toBe('Your verification code: 042517');
    expect(mail.text).toContain('042517');
    expect(mail.text).toContain('to reset your password');
    expect(mail.text).toContain('10 minutes');
    expect(mail.html).toContain('>042517</p>');
  });

  it('says when withdrawals open again, in UTC, and links the reset page', () => {
    const mail = renderMail('passwordChanged', 'en', SAMPLES.passwordChanged, 'https://cashback.example.com');
    expect(mail.text).toContain('18 Jan 2026, 12:00 UTC');
    expect(mail.text).toContain('https://cashback.example.com/resetpassword');
    expect(mail.html).toContain('href="https://cashback.example.com/resetpassword"');
  });

  it('puts the amount, the source and the address in the withdrawal request mail, each on its own line', () => {
    const mail = renderMail(
      'withdrawalRequested',
      'en',
      SAMPLES.withdrawalRequested,
      'https://cashback.example.com',
    );
    expect(mail.subject).toBe('Withdrawal of 120.50 USDT requested');
    expect(mail.text).toContain(
      'Amount: 120.50 USDT\nFrom: Bitget UID 40512345\nTo (Polygon): 0x52908400098527886E0F7030069857D2E4169EE7',
    );
    expect(mail.text).toContain('within 48 hours');
    expect(mail.html).toContain('Amount: 120.50 USDT<br>From: Bitget UID 40512345<br>');
    expect(mail.html).toContain('href="https://cashback.example.com/withdrawal"');
  });

  it('links the payout transaction on Polygonscan and gives the reason of a rejection, escaped', () => {
    const paid = renderMail('withdrawalCompleted', 'ko', SAMPLES.withdrawalCompleted, 'https://x.example');
    expect(paid.html).toContain(`href="https://polygonscan.com/tx/0x${'ab'.repeat(32)}"`);
    const rejected = renderMail('withdrawalRejected', 'zh', SAMPLES.withdrawalRejected, 'https://x.example');
    expect(rejected.text).toContain('原因：The address <is> not on Polygon');
    expect(rejected.html).toContain('The address &lt;is&gt; not on Polygon');
  });

  it('escapes what it puts into HTML', () => {
    const mail = renderMail(
      'verificationCode',
      'en',
      { ...SAMPLES.verificationCode, code: '<b>1</b>' },
      'https://x',
    );
    expect(mail.html).toContain('&lt;b&gt;1&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>1</b>');
  });
});
