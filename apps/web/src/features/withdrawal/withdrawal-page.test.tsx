import type { Withdrawable, WithdrawalRecord } from '@elex/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { envelope, logIn, renderAt, resizeTo } from '../../test/helpers';
import { expectCoolDownNote } from '../auth/testing/stub-auth-server';
import WithdrawalPage from './withdrawal-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

const DICTIONARY = {
  exchangeList: [
    { id: 4, name: 'Bitget', Abbreviation: 'BG', logo: '/logos/bg.svg' },
    { id: 1, name: 'Binance', Abbreviation: 'BN', logo: '/logos/bn.svg' },
  ],
  score: [],
};

type Binding = Withdrawable['bindings'][number];

function withdrawable(overrides: Partial<Withdrawable> = {}): Withdrawable {
  return {
    minimum: '50.000000',
    lockedUntil: null,
    rewards: '12.500000',
    rewardsHeld: null,
    bindings: [
      {
        platId: 4,
        uid: '40512345',
        address: ADDRESS,
        cashback: '100.250000',
        withdrawable: '112.750000',
        shortfall: '0.000000',
        heldUntil: null,
        frozen: false,
      },
      {
        platId: 1,
        uid: '777001',
        address: OTHER,
        cashback: '20.000000',
        withdrawable: '32.500000',
        shortfall: '17.500000',
        heldUntil: null,
        frozen: false,
      },
    ],
    ...overrides,
  };
}

const PENDING: WithdrawalRecord = {
  id: '31',
  platId: 4,
  uid: '40512345',
  amount: '60.000000',
  address: ADDRESS,
  status: 'pending',
  createdAt: '2026-01-15T12:00:00.000Z',
  decidedAt: null,
  txHash: null,
  failureReason: null,
  payout: null,
};
const PAID: WithdrawalRecord = {
  ...PENDING,
  id: '30',
  status: 'completed',
  decidedAt: '2026-01-14T12:00:00.000Z',
  txHash: `0x${'ab'.repeat(32)}`,
};
const FAILED: WithdrawalRecord = {
  ...PENDING,
  id: '29',
  status: 'failed',
  decidedAt: '2026-01-13T12:00:00.000Z',
  failureReason: 'Address on another chain',
};

interface Server {
  withdrawable?: Withdrawable;
  records?: WithdrawalRecord[];
  apply?: (body: Record<string, unknown>) => Response;
  /** Seconds left of the previous code's cool-down: the code request is refused with them. */
  coolDownSeconds?: number;
}

/** Withdraw, then confirm in the code dialog with the good code; answers the dialog. */
async function withdrawWithCode(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: t('withdrawal.submit') }));
  const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
  await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
  await user.keyboard('123456');
  await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
  return dialog;
}

function stubServer(server: Server = {}) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, body });
    switch (url) {
      case '/elex/user/config/res.json':
        return envelope(DICTIONARY);
      case '/elex/user/withdrawable':
        return envelope(server.withdrawable ?? withdrawable());
      case '/elex/user/profile':
        return envelope({
          email: 'member@example.com',
          userCode: 'EXABC234',
          inviteCode: 'ABCDEFGH',
          points: 0,
          xmeEnergy: 0,
          withdrawalLockedUntil: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        });
      case '/elex/exchange/depositRecord': {
        const records = server.records ?? [];
        return envelope({ records, total: records.length, page: 1, pageSize: 10 });
      }
      case '/elex/user/verifyCode':
        return server.coolDownSeconds === undefined
          ? envelope({ resendAfterSeconds: 60 }, 0, 'Verification code sent')
          : envelope(
              { resendAfterSeconds: server.coolDownSeconds },
              1029,
              `Please wait ${server.coolDownSeconds} seconds before requesting another code`,
            );
      case '/elex/user/depositVerifyEmail':
        return body.authCode === '123456'
          ? envelope(null)
          : envelope(null, 1002, 'Invalid verification code');
      case '/elex/user/applyDeposit':
        return server.apply
          ? server.apply(body)
          : envelope(
              { ...PENDING, id: '32', amount: `${body.amount}`, address: body.address },
              0,
              'Withdrawal successful',
            );
      case '/elex/user/cancelDeposit':
        return envelope({ ...PENDING, status: 'cancelled' }, 0, 'Withdrawal cancelled');
      default:
        return envelope(null, 1004, 'Not found', 404);
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

beforeEach(() => {
  clearExchangeDictionary();
  logIn();
});

const amountBox = () => screen.getByLabelText(t('withdrawal.amount'));

describe('/withdrawal: the amount rules', () => {
  it('shows what the chosen UID can withdraw and fills it all with the max button', async () => {
    stubServer();
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    expect(await screen.findByLabelText(t('withdrawal.uid'))).toHaveDisplayValue('Bitget · UID 40512345');
    expect(screen.getByText('112.75 USDT')).toBeInTheDocument();
    expect(screen.getByText('100.25 USDT')).toBeInTheDocument();
    expect(screen.getByLabelText(t('withdrawal.address'))).toHaveValue(ADDRESS);
    expect(screen.getByText(t('withdrawal.reached', { minimum: '50.00' }))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('withdrawal.maxLabel', { amount: '112.75' }) }));
    expect(amountBox()).toHaveValue('112.75');
    expect(screen.queryByText(/more than this UID can withdraw/)).not.toBeInTheDocument();
  });

  it('shows invite bonuses on hold apart, with when they are freed, and the max leaves them out', async () => {
    const heldBindings = withdrawable().bindings.map((binding) => ({
      ...binding,
      withdrawable: binding.platId === 4 ? '102.750000' : '22.500000',
    }));
    stubServer({
      withdrawable: withdrawable({
        rewardsHeld: { amount: '10.000000', until: '2026-02-01T08:00:00.000Z', disputed: false },
        bindings: heldBindings,
      }),
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    const held = screen.getByText(t('withdrawal.rewardsHeld'));
    expect(held.nextElementSibling).toHaveTextContent('−10.00 USDT');
    expect(
      screen.getByText(/^10\.00 USDT of your event rewards are invite bonuses from friends/),
    ).toHaveTextContent(/14-day ownership check: all of it can be withdrawn by .*2026/);
    // Read out with the amount, where the member decides how much to send.
    expect(amountBox()).toHaveAccessibleDescription(/invite bonuses from friends/);
    await user.click(screen.getByRole('button', { name: t('withdrawal.maxLabel', { amount: '102.75' }) }));
    expect(amountBox()).toHaveValue('102.75');
  });

  it('says bonuses held for a dispute wait until it is settled', async () => {
    stubServer({
      withdrawable: withdrawable({ rewardsHeld: { amount: '4.000000', until: null, disputed: true } }),
    });
    renderAt(<WithdrawalPage />, '/withdrawal');
    expect(
      await screen.findByText(t('withdrawal.rewardsHeldDisputed', { amount: '4.00' })),
    ).toBeInTheDocument();
  });

  it('chooses the UID named in the address (the deletion dialog’s "withdraw first"), else the first', async () => {
    stubServer();
    renderAt(<WithdrawalPage />, '/withdrawal?platId=1&uid=777001');
    expect(await screen.findByLabelText(t('withdrawal.uid'))).toHaveDisplayValue('Binance · UID 777001');
    expect(screen.getByLabelText(t('withdrawal.address'))).toHaveValue(OTHER);
  });

  it('ignores a UID in the address that is not one of the member’s', async () => {
    stubServer();
    renderAt(<WithdrawalPage />, '/withdrawal?platId=1&uid=999999');
    expect(await screen.findByLabelText(t('withdrawal.uid'))).toHaveDisplayValue('Bitget · UID 40512345');
  });

  it('says how much is still needed below the minimum and will not withdraw', async () => {
    stubServer();
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    const select = await screen.findByLabelText(t('withdrawal.uid'));
    await user.selectOptions(select, '1:777001');
    // The binding's own address comes with it.
    expect(screen.getByLabelText(t('withdrawal.address'))).toHaveValue(OTHER);
    expect(
      screen.getByText(t('withdrawal.shortfall', { shortfall: '17.50', minimum: '50.00' })),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('withdrawal.submit') })).toBeDisabled();
    expect(
      screen.getByRole('button', { name: t('withdrawal.maxLabel', { amount: '32.50' }) }),
    ).toBeDisabled();
  });

  it('refuses an amount under 50 USDT with the shortfall, and more than the balance with what is available', async () => {
    stubServer();
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '49.995');
    await user.tab();
    expect(
      await screen.findByText(
        i18next.t('msg:withdrawalBelowMinimum', { minimum: '50.00', shortfall: '0.005' }),
      ),
    ).toBeInTheDocument();
    expect(amountBox()).toHaveAttribute('aria-invalid', 'true');
    // Only the amount's error shows: not also the balance's green "minimum reached" (issue 15).
    expect(screen.queryByText(t('withdrawal.reached', { minimum: '50.00' }))).not.toBeInTheDocument();
    await user.clear(amountBox());
    await user.type(amountBox(), '112.750001');
    expect(
      await screen.findByText(i18next.t('msg:withdrawalOverBalance', { available: '112.75' })),
    ).toBeInTheDocument();
    // The other UID has less: the same amount is checked against it at once.
    await user.clear(amountBox());
    await user.type(amountBox(), '60');
    expect(screen.queryByText(/more than this UID can withdraw/)).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(t('withdrawal.uid')), '1:777001');
    // That UID holds 32.50, under the 50 a withdrawal needs: the server's refusal, said first here.
    expect(
      await screen.findByText(
        i18next.t('msg:withdrawalBelowMinimum', { minimum: '50.00', shortfall: '17.50' }),
      ),
    ).toBeInTheDocument();
    await user.clear(amountBox());
    await user.type(amountBox(), '12.1234567');
    expect(await screen.findByText(i18next.t('msg:amountInvalid'))).toBeInTheDocument();
  });
});

describe('/withdrawal: requesting', () => {
  it('confirms with the e-mailed code, sends one request id and shows the success', async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.clear(screen.getByLabelText(t('withdrawal.address')));
    await user.type(screen.getByLabelText(t('withdrawal.address')), OTHER.toLowerCase());
    await user.type(amountBox(), '60');
    await user.click(screen.getByRole('button', { name: t('withdrawal.submit') }));

    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(calls.find((call) => call.url === '/elex/user/verifyCode')?.body).toEqual({ module: 3 });
    expect(
      within(dialog).getByText(t('auth.codeSentTo', { email: 'member@example.com' })),
    ).toBeInTheDocument();
    await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
    await user.keyboard('123456');
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));

    const result = await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalSuccessful') });
    expect(result).toHaveTextContent('60.00 USDT');
    const apply = calls.find((call) => call.url === '/elex/user/applyDeposit')?.body;
    expect(apply).toMatchObject({
      platId: 4,
      uid: '40512345',
      address: OTHER.toLowerCase(),
      amount: '60',
      authCode: '123456',
    });
    expect(apply?.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // Closed, focus goes to the list that shows the withdrawal, not to the emptied amount, which would
    // say "required" as soon as it is left.
    await user.click(
      within(result)
        .getAllByRole('button', { name: t('common.close') })
        .at(-1) as HTMLElement,
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: t('withdrawal.historyTitle') })).toHaveFocus(),
    );
    await user.tab();
    expect(screen.queryByText(i18next.t('msg:requiredInformation'))).not.toBeInTheDocument();
  });

  it('returns focus to the amount when the outcome dialog closes, not to the page body', async () => {
    stubServer({
      apply: () => envelope(null, 1, 'Address on another chain'),
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '60');
    await withdrawWithCode(user);
    const failure = await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalFailed') });
    await user.click(
      within(failure)
        .getAllByRole('button', { name: t('common.close') })
        .at(-1) as HTMLElement,
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(amountBox()).toHaveFocus());

    await withdrawWithCode(user);
    await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalFailed') });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(amountBox()).toHaveFocus());
  });

  it('retries a withdrawal lost to the network with the same request id, so the server makes one', async () => {
    let applyCalls = 0;
    const calls = stubServer({
      apply: (body) => {
        applyCalls += 1;
        // The first answer never arrives (fetch rejects, as when the connection drops).
        if (applyCalls === 1) throw new TypeError('Failed to fetch');
        return envelope({ ...PENDING, id: '33', amount: `${body.amount}` }, 0, 'Withdrawal successful');
      },
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '60');

    const confirmWithCode = () => withdrawWithCode(user);
    await confirmWithCode();
    const failed = await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalFailed') });
    expect(within(failed).getByRole('alert')).toHaveTextContent(i18next.t('msg:networkAnomaly'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(failed).not.toBeInTheDocument());
    // The form kept what the member typed: the same click again.
    expect(amountBox()).toHaveValue('60');
    await confirmWithCode();
    const succeeded = await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalSuccessful') });

    const applies = calls.filter((call) => call.url === '/elex/user/applyDeposit').map((call) => call.body);
    expect(applies).toHaveLength(2);
    expect(applies[1]?.requestId).toBe(applies[0]?.requestId);
    expect(applies[1]).toEqual(applies[0]);

    // The answer came: the next withdrawal is a new one, with a new id.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(succeeded).not.toBeInTheDocument());
    await user.type(amountBox(), '55');
    await confirmWithCode();
    await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalSuccessful') });
    const third = calls.filter((call) => call.url === '/elex/user/applyDeposit')[2]?.body;
    expect(third?.amount).toBe('55');
    expect(third?.requestId).not.toBe(applies[0]?.requestId);
  });

  it('keeps the code dialog when the balance is being credited, and the same confirm goes through later', async () => {
    const busy = i18next.t('msg:accountBusy');
    let applyCalls = 0;
    const calls = stubServer({
      apply: (body) => {
        applyCalls += 1;
        return applyCalls === 1
          ? envelope({ messageKey: 'accountBusy' }, 1002, busy)
          : envelope({ ...PENDING, id: '34', amount: `${body.amount}` }, 0, 'Withdrawal successful');
      },
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '60');
    const dialog = await withdrawWithCode(user);

    // Told why, no failure: the dialog and its digits stay for the same confirm.
    expect(await screen.findByText(busy)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: i18next.t('msg:withdrawalFailed') })).toBeNull();
    expect(dialog).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
    await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalSuccessful') });
    const applies = calls.filter((call) => call.url === '/elex/user/applyDeposit').map((call) => call.body);
    expect(applies).toHaveLength(2);
    expect(applies[1]).toEqual(applies[0]);
  });

  it('says the code was sent, and so again after a resend', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubServer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '60');
    await user.click(screen.getByRole('button', { name: t('withdrawal.submit') }));
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(await screen.findByText(i18next.t('msg:codeSent'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '01:00' }))).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    await waitFor(() => expect(screen.queryByText(i18next.t('msg:codeSent'))).not.toBeInTheDocument());
    await user.click(within(dialog).getByRole('button', { name: t('auth.resend') }));
    expect(await within(dialog).findByText(t('auth.codeCountdown', { time: '01:00' }))).toBeInTheDocument();
    expect(await screen.findByText(i18next.t('msg:codeSent'))).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/elex/user/verifyCode')).toHaveLength(2);
  });

  it('opens the code dialog with the seconds left when a code was sent under a minute ago', async () => {
    stubServer({ coolDownSeconds: 20 });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '60');
    await user.click(screen.getByRole('button', { name: t('withdrawal.submit') }));
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:20' }))).toBeInTheDocument();
    // A calm note, not the server's 'Please wait' as an error (issue 15).
    await expectCoolDownNote(20);
  });

  it('shows "Withdrawal failed" with the server’s reason', async () => {
    stubServer({
      apply: () => envelope(null, 1002, 'The amount is more than this UID can withdraw (10.00 USDT)'),
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    await user.type(amountBox(), '50');
    await withdrawWithCode(user);
    const result = await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalFailed') });
    expect(within(result).getByRole('alert')).toHaveTextContent(
      'The amount is more than this UID can withdraw (10.00 USDT)',
    );
  });

  it('is paused after a password change, saying until when', async () => {
    stubServer({ withdrawable: withdrawable({ lockedUntil: '2026-01-18T12:00:00.000Z' }) });
    renderAt(<WithdrawalPage />, '/withdrawal');
    const notice = await screen.findByText(/^Withdrawals are paused until .*2026/);
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: t('withdrawal.submit') })).toBeDisabled();
  });

  it('sends a member without a bound UID to bind one', async () => {
    stubServer({ withdrawable: withdrawable({ bindings: [] }) });
    renderAt(<WithdrawalPage />, '/withdrawal');
    expect(await screen.findByRole('link', { name: t('withdrawal.bindLink') })).toHaveAttribute(
      'href',
      '/uidlinking',
    );
  });
});

describe('/withdrawal: the list', () => {
  it('shows each withdrawal’s status, the paid transaction on Polygonscan and the reason of a failure', async () => {
    stubServer({ records: [PENDING, PAID, FAILED] });
    renderAt(<WithdrawalPage />, '/withdrawal');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1] as HTMLElement).getByText(t('withdrawal.statuses.pending'))).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Bitget')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('60.00')).toBeInTheDocument();
    const link = within(rows[2] as HTMLElement).getByRole('link', {
      name: new RegExp(t('withdrawal.viewTx')),
    });
    expect(link).toHaveAttribute('href', `https://polygonscan.com/tx/0x${'ab'.repeat(32)}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(rows[3] as HTMLElement).getByText('Reason: Address on another chain')).toBeInTheDocument();
    // Only the withdrawal under review can be cancelled.
    expect(within(table).getAllByRole('button', { name: /Cancel the withdrawal of/ })).toHaveLength(1);
  });

  it('on a 390 px phone lists each withdrawal with its amount and status in view, and the cancel button', async () => {
    // issue 15: the table was 872 px wide there, with Status and Cancel off-screen.
    resizeTo(390);
    stubServer({ records: [PENDING, PAID, FAILED] });
    renderAt(<WithdrawalPage />, '/withdrawal');
    const list = await screen.findByRole('list', { name: t('withdrawal.historyTitle') });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const entries = within(list).getAllByRole('listitem');
    expect(entries).toHaveLength(3);
    const [pending, paid, failed] = entries as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(pending).getByText('60.00')).toBeInTheDocument();
    expect(within(pending).getByText(t('withdrawal.statuses.pending'))).toBeInTheDocument();
    expect(
      within(pending).getByRole('button', { name: t('withdrawal.cancelLabel', { amount: '60.00' }) }),
    ).toBeInTheDocument();
    expect(within(paid).getByText(t('withdrawal.statuses.completed'))).toBeInTheDocument();
    expect(within(paid).getByRole('link', { name: new RegExp(t('withdrawal.viewTx')) })).toHaveAttribute(
      'href',
      `https://polygonscan.com/tx/0x${'ab'.repeat(32)}`,
    );
    expect(within(failed).getByText(t('withdrawal.statuses.failed'))).toBeInTheDocument();
    expect(within(failed).getByText('Reason: Address on another chain')).toBeInTheDocument();
    expect(within(list).getAllByRole('button')).toHaveLength(1);
  });

  it('follows a payout sent on chain: sent, then confirming n of m, with its transaction and no cancel', async () => {
    const hash = `0x${'cd'.repeat(32)}`;
    const sent: WithdrawalRecord = {
      ...PENDING,
      payout: { stage: 'sent', txHash: hash, explorerUrl: null, confirmations: 0, confirmationsNeeded: 64 },
    };
    const confirming: WithdrawalRecord = {
      ...sent,
      payout: {
        ...(sent.payout as NonNullable<WithdrawalRecord['payout']>),
        stage: 'confirming',
        confirmations: 12,
      },
    };
    const server: { records: WithdrawalRecord[] } = { records: [sent] };
    const calls = stubServer(server);
    renderAt(<WithdrawalPage />, '/withdrawal');
    const table = await screen.findByRole('table');
    const row = () => within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row()).getByText(t('withdrawal.payoutStages.sent'))).toBeInTheDocument();
    expect(within(row()).getByText(t('withdrawal.sentHint'))).toBeInTheDocument();
    expect(within(row()).queryByText(t('withdrawal.statuses.pending'))).not.toBeInTheDocument();
    expect(within(row()).getByRole('link', { name: new RegExp(t('withdrawal.viewTx')) })).toHaveAttribute(
      'href',
      `https://polygonscan.com/tx/${hash}`,
    );
    // Sent on chain: it can no longer be called back.
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();

    // The list asks again by itself while the payout is on its way.
    const asked = calls.filter((call) => call.url === '/elex/exchange/depositRecord').length;
    server.records = [confirming];
    await waitFor(
      () => expect(within(row()).getByText(t('withdrawal.payoutStages.confirming'))).toBeInTheDocument(),
      { timeout: 12_000 },
    );
    expect(calls.filter((call) => call.url === '/elex/exchange/depositRecord').length).toBeGreaterThan(asked);
    expect(within(row()).getByText('12 of 64 confirmations')).toBeInTheDocument();
    const progress = within(row()).getByRole('progressbar', { name: t('withdrawal.confirmationsLabel') });
    expect(progress).toHaveAttribute('value', '12');
    expect(progress).toHaveAttribute('max', '64');
  }, 30_000);

  it('cancels a withdrawal under review after asking', async () => {
    const calls = stubServer({ records: [PENDING] });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await user.click(
      await screen.findByRole('button', { name: t('withdrawal.cancelLabel', { amount: '60.00' }) }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('withdrawal.cancelTitle') });
    expect(dialog).toHaveTextContent(t('withdrawal.cancelBody', { amount: '60.00' }));
    await user.click(within(dialog).getByRole('button', { name: t('withdrawal.cancelConfirm') }));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/elex/user/cancelDeposit')?.body).toEqual({ id: '31' }),
    );
    expect(await screen.findByText(i18next.t('msg:withdrawalCancelled'))).toBeInTheDocument();
  });
});

describe('/withdrawal: a UID held for its ownership check or frozen by a dispute (issue 11)', () => {
  const HELD_UNTIL = '2026-02-01T12:00:00.000Z';
  const heldTime = () =>
    new Date(HELD_UNTIL).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

  it('says until when a new binding is held, refuses to withdraw and leads to support with the UID', async () => {
    const base = withdrawable();
    const [first, second] = base.bindings;
    stubServer({
      withdrawable: {
        ...base,
        bindings: [{ ...(first as Binding), heldUntil: HELD_UNTIL }, second as Binding],
      },
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');

    const notice = await screen.findByText(i18next.t('msg:withdrawalOwnershipHeld', { time: heldTime() }));
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: t('withdrawal.submit') })).toBeDisabled();
    expect(
      screen.getByRole('button', { name: t('withdrawal.maxLabel', { amount: '112.75' }) }),
    ).toBeDisabled();
    expect(screen.getByRole('link', { name: t('withdrawal.sendScreenshot') })).toHaveAttribute(
      'href',
      '/mypage/support/new?kind=ownership&platId=4&uid=40512345',
    );

    // Another UID that is not held says nothing of it.
    await user.selectOptions(screen.getByLabelText(t('withdrawal.uid')), '1:777001');
    expect(screen.queryByText(i18next.t('msg:withdrawalOwnershipHeld', { time: heldTime() }))).toBeNull();
  });

  it('says a UID under dispute cannot be withdrawn until support decides, and offers support', async () => {
    const base = withdrawable();
    const [first, second] = base.bindings;
    stubServer({
      withdrawable: { ...base, bindings: [{ ...(first as Binding), frozen: true }, second as Binding] },
    });
    renderAt(<WithdrawalPage />, '/withdrawal');

    expect(await screen.findByText(i18next.t('msg:withdrawalFrozen'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('withdrawal.submit') })).toBeDisabled();
    expect(screen.getByRole('link', { name: t('withdrawal.contactSupport') })).toHaveAttribute(
      'href',
      '/mypage/support/new?platId=4&uid=40512345',
    );
  });
});

describe('/withdrawal: amounts read as everywhere else, grouped and exact', () => {
  const LARGE: Binding = {
    platId: 4,
    uid: '40512345',
    address: ADDRESS,
    cashback: '12345.678901',
    withdrawable: '13580.178902',
    shortfall: '0.000000',
    heldUntil: null,
    frozen: false,
  };
  const LARGE_RECORD: WithdrawalRecord = { ...PENDING, amount: '12345.678901' };

  it('groups the balances, the held bonuses, the max and the over-balance refusal, and keeps every digit', async () => {
    stubServer({
      withdrawable: withdrawable({
        rewards: '2234.500001',
        rewardsHeld: { amount: '1000.000000', until: null, disputed: true },
        bindings: [LARGE],
      }),
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    await screen.findByLabelText(t('withdrawal.uid'));
    expect(screen.getByText('12,345.678901 USDT')).toBeInTheDocument();
    expect(screen.getByText('2,234.500001 USDT')).toBeInTheDocument();
    expect(screen.getByText('−1,000.00 USDT')).toBeInTheDocument();
    expect(screen.getByText('13,580.178902 USDT')).toBeInTheDocument();
    expect(screen.getByText(t('withdrawal.rewardsHeldDisputed', { amount: '1,000.00' }))).toBeInTheDocument();

    // The max button names the grouped figure; the field gets digits the server reads back as they are.
    await user.click(
      screen.getByRole('button', { name: t('withdrawal.maxLabel', { amount: '13,580.178902' }) }),
    );
    expect(amountBox()).toHaveValue('13580.178902');
    await user.clear(amountBox());
    await user.type(amountBox(), '13580.178903');
    expect(
      await screen.findByText(i18next.t('msg:withdrawalOverBalance', { available: '13,580.178902' })),
    ).toBeInTheDocument();
  });

  it('groups a withdrawal in the list, on its cancel button and in the dialogs', async () => {
    resizeTo(1280);
    stubServer({
      withdrawable: withdrawable({ bindings: [LARGE] }),
      records: [LARGE_RECORD],
      apply: (body) =>
        envelope({ ...PENDING, id: '32', amount: `${body.amount}`, address: body.address }, 0, ''),
    });
    const user = userEvent.setup();
    renderAt(<WithdrawalPage />, '/withdrawal');
    const table = await screen.findByRole('table');
    expect(within(table).getByText('12,345.678901')).toBeInTheDocument();
    await user.click(
      within(table).getByRole('button', { name: t('withdrawal.cancelLabel', { amount: '12,345.678901' }) }),
    );
    const cancel = await screen.findByRole('dialog', { name: t('withdrawal.cancelTitle') });
    expect(cancel).toHaveTextContent(t('withdrawal.cancelBody', { amount: '12,345.678901' }));
    await user.click(within(cancel).getByRole('button', { name: t('withdrawal.keep') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.type(amountBox(), '12345.5');
    await withdrawWithCode(user);
    const result = await screen.findByRole('dialog', { name: i18next.t('msg:withdrawalSuccessful') });
    expect(result).toHaveTextContent('12,345.50 USDT');
  });

  it('on a phone groups the amount of each withdrawal', async () => {
    resizeTo(390);
    stubServer({ records: [LARGE_RECORD] });
    renderAt(<WithdrawalPage />, '/withdrawal');
    const list = await screen.findByRole('list', { name: t('withdrawal.historyTitle') });
    expect(within(list).getByText('12,345.678901')).toBeInTheDocument();
  });
});
