import type { PayoutSummary, PayoutWallet, WithdrawalQueueItem } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import { formatGas } from './components/payout-wallet-panel';
import { formatGwei } from './format';
import { pendingItem, serveConsole } from './test-fixtures';

/**
 * The withdrawal queue with on-chain payouts (issue 17): the wallet's health, "Send on chain" for one
 * withdrawal and for a selection, the outcome of each in a batch, and a payout followed in the queue.
 */
const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const ADDRESS = '0x1234567890AbcdEF1234567890aBcdef12345678';
const HASH = `0x${'ef'.repeat(32)}`;

function wallet(overrides: Partial<Extract<PayoutWallet, { enabled: true }>> = {}): PayoutWallet {
  return {
    enabled: true,
    chainId: 137,
    address: ADDRESS,
    explorerUrl: `https://polygonscan.com/address/${ADDRESS}`,
    token: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    confirmations: 64,
    balances: { usdt: '1000.000000', gas: '2.500000000000000000' },
    unreachable: null,
    awaiting: { count: 2, amount: '120.000000' },
    inFlight: { count: 0, amount: '0.000000' },
    fees: { askedGwei: '35.503', ceilingGwei: '1000' },
    needed: { usdt: '120.000000', gas: '0.024000000000000000' },
    shortOfUsdt: false,
    shortOfGas: false,
    fastLane: null,
    ...overrides,
  };
}

function payout(overrides: Partial<PayoutSummary> = {}): PayoutSummary {
  return {
    id: 5,
    state: 'broadcast',
    txHash: HASH,
    explorerUrl: `https://polygonscan.com/tx/${HASH}`,
    nonce: 12,
    confirmations: 0,
    confirmationsNeeded: 64,
    attempts: 1,
    sentBy: 'ops@example.com',
    sentVia: 'console',
    createdAt: '2026-06-01T11:00:00.000Z',
    finishedAt: null,
    failureReason: null,
    lastError: null,
    feeHeld: null,
    ...overrides,
  };
}

const page = (rows: WithdrawalQueueItem[]) => envelope({ rows, total: rows.length, page: 1, pageSize: 10 });

beforeEach(() => {
  window.innerWidth = 1280;
  logIn();
});

describe('the payout wallet above the queue', () => {
  it('shows the address, balances, what awaits and what is on its way', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () => page([]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const panel = await screen.findByRole('region', { name: t('admin.payouts.walletTitle') });
    expect(within(panel).getByRole('link', { name: ADDRESS })).toHaveAttribute(
      'href',
      `https://polygonscan.com/address/${ADDRESS}`,
    );
    expect(within(panel).getByText('1,000.00')).toBeVisible();
    expect(within(panel).getByText('2.5000 POL')).toBeVisible();
    expect(
      within(panel).getByText(t('admin.payouts.feesFigure', { asked: '35.5', ceiling: '1,000' })),
    ).toBeVisible();
    expect(
      within(panel).getByText(t('admin.payouts.countAmount', { count: 2, amount: '120.00' })),
    ).toBeVisible();
    expect(within(panel).queryByText(/Short of/)).toBeNull();
    expect(within(panel).getByText(t('admin.payouts.fastLaneOff'))).toBeVisible();
  });

  it('states the fast lane’s limits and what it sent, and names it as the sender of its payouts', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () =>
        envelope(
          wallet({
            fastLane: {
              max: '100.000000',
              daily: '1000.000000',
              memberDaily: '200.000000',
              minAccountDays: 14,
              sentLast24h: '160.000000',
            },
          }),
        ),
      '/elex/admin/withdrawalQueue': () =>
        page([pendingItem({ payout: payout({ sentBy: null, sentVia: 'auto' }) })]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const panel = await screen.findByRole('region', { name: t('admin.payouts.walletTitle') });
    expect(
      within(panel).getByText(
        t('admin.payouts.fastLaneOn', {
          max: '100.00',
          memberDaily: '200.00',
          daily: '1,000.00',
          sent: '160.00',
          days: 14,
        }),
      ),
    ).toBeVisible();
    const [item] = (await screen.findAllByRole('article')) as [HTMLElement];
    expect(within(item).getByText(new RegExp(`by ${t('admin.payouts.fastLane')}`))).toBeVisible();
  });

  it('says per withdrawal whether the fast lane sends it or why it leaves it to the operator', async () => {
    serveConsole({
      '/elex/admin/withdrawalQueue': () =>
        page([
          pendingItem({ id: '41', fastLane: 'sends' }),
          pendingItem({ id: '42', fastLane: 'newAddress' }),
          pendingItem({ id: '43', fastLane: 'memberDailyLimit' }),
          pendingItem({ id: '44', fastLane: null }),
        ]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const items = (await screen.findAllByRole('article')) as HTMLElement[];
    const laneOf = (item: HTMLElement) =>
      within(item).queryByText(t('admin.withdrawals.fastLane'))?.nextElementSibling?.textContent ?? null;
    expect(items.map(laneOf)).toEqual([
      t('admin.withdrawals.fastLaneVerdicts.sends'),
      t('admin.withdrawals.fastLaneVerdicts.newAddress'),
      t('admin.withdrawals.fastLaneVerdicts.memberDailyLimit'),
      // The lane is off, or the withdrawal is not pending: nothing to say.
      null,
    ]);
  });

  it('warns when USDT or gas falls short', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () =>
        envelope(
          wallet({
            balances: { usdt: '100.000000', gas: '0.000000000000001000' },
            needed: { usdt: '120.000000', gas: '0.024000000000000000' },
            shortOfUsdt: true,
            shortOfGas: true,
          }),
        ),
      '/elex/admin/withdrawalQueue': () => page([]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const panel = await screen.findByRole('region', { name: t('admin.payouts.walletTitle') });
    expect(
      within(panel).getByText(t('admin.payouts.shortOfUsdt', { held: '100.00', needed: '120.00' })),
    ).toBeVisible();
    // A few wei held reads as under the smallest step, never as nothing and never as more.
    expect(
      within(panel).getByText(t('admin.payouts.shortOfGas', { held: '< 0.0001 POL', needed: '0.0240 POL' })),
    ).toBeVisible();
  });

  it('never shows the gas held as more than it is: just short of the need reads short', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () =>
        envelope(
          wallet({
            balances: { usdt: '1000.000000', gas: '0.023999000000000000' },
            needed: { usdt: '120.000000', gas: '0.024000000000000000' },
            shortOfGas: true,
          }),
        ),
      '/elex/admin/withdrawalQueue': () => page([]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const panel = await screen.findByRole('region', { name: t('admin.payouts.walletTitle') });
    expect(
      within(panel).getByText(t('admin.payouts.shortOfGas', { held: '0.0239 POL', needed: '0.0240 POL' })),
    ).toBeVisible();
    expect(within(panel).getAllByText('0.0239 POL').length).toBeGreaterThan(0);
  });

  it('says when no payout node answers, with the balances unknown', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () =>
        envelope(
          wallet({ balances: null, needed: { usdt: '120.000000', gas: null }, unreachable: 'HTTP 502' }),
        ),
      '/elex/admin/withdrawalQueue': () => page([]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const panel = await screen.findByRole('region', { name: t('admin.payouts.walletTitle') });
    expect(within(panel).getByText(t('admin.payouts.unreachable', { error: 'HTTP 502' }))).toBeVisible();
    expect(within(panel).getAllByText('—')).toHaveLength(2);
  });

  it('says payouts are by hand without a key, and offers no send', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () => envelope({ enabled: false }),
      '/elex/admin/withdrawalQueue': () => page([pendingItem()]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    expect(await screen.findByText(t('admin.payouts.off'))).toBeVisible();
    expect(await screen.findByRole('button', { name: t('admin.withdrawals.approve') })).toBeVisible();
    expect(screen.queryByRole('button', { name: t('admin.payouts.send') })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe('sending from the queue', () => {
  it('sends one withdrawal after saying what leaves the wallet, then shows its payout', async () => {
    let sent = false;
    const calls = serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () => page([pendingItem(sent ? { payout: payout() } : {})]),
      '/elex/admin/sendWithdrawal': () => {
        sent = true;
        return envelope({ created: true, payout: payout() });
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/withdrawals');
    await user.click(await screen.findByRole('button', { name: t('admin.payouts.send') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.payouts.sendTitle') });
    expect(dialog).toHaveTextContent(t('admin.payouts.sendWarning'));
    expect(dialog).toHaveTextContent('60.00');
    await user.click(within(dialog).getByRole('button', { name: t('admin.payouts.sendSubmit') }));
    await waitFor(() =>
      expect(
        calls.filter((call) => call.path === '/elex/admin/sendWithdrawal').map((call) => call.body),
      ).toEqual([{ id: '31' }]),
    );
    expect(await screen.findByText(t('msg:payoutSent', { confirmations: 64 }))).toBeVisible();
    // On its way: its state and transaction; no approve, reject or send while it is.
    const item = await screen.findByRole('article');
    expect(await within(item).findByText(t('admin.payouts.states.broadcast'))).toBeVisible();
    expect(within(item).getByRole('link', { name: HASH })).toHaveAttribute(
      'href',
      `https://polygonscan.com/tx/${HASH}`,
    );
    expect(within(item).queryByRole('button')).toBeNull();
  });

  it('sends a selection as a batch and lists why some were not sent', async () => {
    const calls = serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () =>
        page([pendingItem(), pendingItem({ id: '32', amount: '70.500000' }), pendingItem({ id: '33' })]),
      '/elex/admin/sendWithdrawals': () =>
        envelope({
          results: [
            { id: '31', created: true, payout: payout(), refusal: null },
            {
              id: '32',
              created: false,
              payout: null,
              refusal: 'You cannot decide your own withdrawal: another operator must',
            },
          ],
        }),
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/withdrawals');
    const sendSelected = await screen.findByRole('button', {
      name: t('admin.payouts.sendSelected', { count: 0 }),
    });
    expect(sendSelected).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: t('admin.payouts.select', { id: '31' }) }));
    await user.click(screen.getByRole('checkbox', { name: t('admin.payouts.select', { id: '32' }) }));
    await user.click(screen.getByRole('button', { name: t('admin.payouts.sendSelected', { count: 2 }) }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.payouts.batchTitle', { count: 2 }) });
    expect(dialog).toHaveTextContent(t('admin.payouts.batchSummary', { count: 2, amount: '130.50' }));
    await user.click(
      within(dialog).getByRole('button', { name: t('admin.payouts.batchSubmit', { count: 2 }) }),
    );
    const results = await within(dialog).findByRole('list', { name: t('admin.payouts.resultsLabel') });
    const lines = within(results).getAllByRole('listitem');
    expect(lines[0]).toHaveTextContent(t('admin.payouts.resultSent'));
    expect(lines[1]).toHaveTextContent('You cannot decide your own withdrawal: another operator must');
    expect(calls.find((call) => call.path === '/elex/admin/sendWithdrawals')?.body).toEqual({
      ids: ['31', '32'],
    });
    await user.click(within(dialog).getByRole('button', { name: t('admin.payouts.close') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says a payout is held by the fee ceiling, with the network’s ask, and offers no button', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () =>
        page([
          pendingItem({
            payout: payout({ attempts: 3, feeHeld: { askedGwei: '1850.512345678', ceilingGwei: '1000' } }),
          }),
        ]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const [held] = (await screen.findAllByRole('article')) as [HTMLElement];
    expect(
      within(held).getByText(t('admin.payouts.feeHeld', { asked: '1,850.51', ceiling: '1,000' })),
    ).toBeVisible();
    expect(within(held).getByText(t('admin.payouts.states.broadcast'))).toBeVisible();
    expect(within(held).queryByRole('button')).toBeNull();
  });

  it('follows a payout in a block to its confirmations, and offers a send again after a revert', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () =>
        page([
          pendingItem({ payout: payout({ state: 'mined', confirmations: 12, lastError: null }) }),
          pendingItem({
            id: '32',
            payout: payout({
              id: 6,
              state: 'reverted',
              failureReason: 'USDT: transfer amount exceeds balance',
              finishedAt: '2026-06-01T11:05:00.000Z',
            }),
          }),
        ]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const [mined, reverted] = (await screen.findAllByRole('article')) as [HTMLElement, HTMLElement];
    expect(within(mined).getByText(t('admin.payouts.confirmations', { done: 12, needed: 64 }))).toBeVisible();
    expect(within(mined).queryByRole('button')).toBeNull();
    expect(
      within(reverted).getByText(
        t('admin.payouts.failure', { reason: 'USDT: transfer amount exceeds balance' }),
      ),
    ).toBeVisible();
    expect(within(reverted).getByRole('button', { name: t('admin.payouts.sendAgain') })).toBeVisible();
    expect(within(reverted).getByRole('button', { name: t('admin.withdrawals.reject') })).toBeVisible();
  });
});

describe('the wallet against the chain', () => {
  const reconciliation = (
    mismatches: unknown[],
    explained = { count: 0, amount: '0.000000' },
    explainedTransfers: unknown[] = [],
  ) =>
    envelope({
      enabled: true,
      address: ADDRESS,
      fromBlock: 100,
      scannedTo: 5000,
      behind: 0,
      unreachable: null,
      transfers: { count: 3, amount: '190.000000' },
      explained,
      explainedTransfers,
      mismatches,
    });

  it('says every transfer is a payout when they agree', async () => {
    serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () => page([]),
      '/elex/admin/payoutReconciliation': () => reconciliation([]),
    });
    renderRoutes(routes, '/admin/withdrawals');
    const panel = await screen.findByRole('region', { name: t('admin.payouts.reconciliationTitle') });
    expect(
      within(panel).getByText(
        t('admin.payouts.blocksRead', { from: 100, to: 5000, count: 3, amount: '190.00' }),
        { exact: false },
      ),
    ).toBeVisible();
    expect(within(panel).getByText(t('admin.payouts.allMatched'))).toBeVisible();
  });

  it('lists a transfer that is no payout, and explains it with a reason', async () => {
    let explained = false;
    const calls = serveConsole({
      '/elex/admin/payoutWallet': () => envelope(wallet()),
      '/elex/admin/withdrawalQueue': () => page([]),
      '/elex/admin/payoutReconciliation': () =>
        explained
          ? reconciliation([], { count: 1, amount: '7.000000' }, [
              {
                txHash: HASH,
                explorerUrl: `https://polygonscan.com/tx/${HASH}`,
                to: '0x000000000000000000000000000000000000bEEF',
                amount: '7.000000',
                block: 4000,
                reason: 'Float to cold storage',
                by: 'ops@example.com',
                at: '2026-06-01T12:00:00.000Z',
              },
            ])
          : reconciliation([
              {
                kind: 'unknownTransfer',
                txHash: HASH,
                explorerUrl: `https://polygonscan.com/tx/${HASH}`,
                payoutId: null,
                withdrawalId: null,
                to: '0x000000000000000000000000000000000000bEEF',
                amount: '7.000000',
                block: 4000,
              },
              {
                kind: 'paidButNotConfirmed',
                txHash: `0x${'aa'.repeat(32)}`,
                explorerUrl: null,
                payoutId: 9,
                withdrawalId: '44',
                to: ADDRESS,
                amount: '55.000000',
                block: 4100,
              },
            ]),
      '/elex/admin/explainTransfer': () => {
        explained = true;
        return envelope({ txHash: HASH, explanation: 'Float to cold storage' });
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/withdrawals');
    const list = await screen.findByRole('list', { name: t('admin.payouts.mismatchesLabel') });
    const [foreign, landed] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(foreign).getByText(t('admin.payouts.mismatch.unknownTransfer'))).toBeVisible();
    expect(within(foreign).getByRole('link', { name: HASH })).toHaveAttribute(
      'href',
      `https://polygonscan.com/tx/${HASH}`,
    );
    expect(within(landed).getByText(t('admin.payouts.mismatch.paidButNotConfirmed'))).toBeVisible();
    // Only a transfer that is no payout can be explained away.
    expect(within(landed).queryByRole('button')).toBeNull();

    await user.click(within(foreign).getByRole('button', { name: t('admin.payouts.explain') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.payouts.explainTitle') });
    await user.type(within(dialog).getByLabelText(t('admin.payouts.explainLabel')), 'Float to cold storage');
    await user.click(within(dialog).getByRole('button', { name: t('admin.payouts.explainSubmit') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/explainTransfer')?.body).toEqual({
        txHash: HASH,
        reason: 'Float to cold storage',
      }),
    );
    expect(await screen.findByText(t('admin.payouts.allMatched'))).toBeVisible();
    expect(
      screen.getByText(t('admin.payouts.explainedCount', { count: 1, amount: '7.00' }), { exact: false }),
    ).toBeVisible();
    // It is kept on record below, with the reason and who gave it.
    await user.click(screen.getByText(t('admin.payouts.explainedTitle', { count: 1 })));
    const kept = screen.getByText(/Float to cold storage/);
    expect(kept).toBeVisible();
    expect(kept.textContent).toContain('ops@example.com');
    expect(screen.getByRole('link', { name: HASH })).toHaveAttribute(
      'href',
      `https://polygonscan.com/tx/${HASH}`,
    );
  });
});

describe('formatGas', () => {
  it('shows gwei with two decimals, and three significant digits below one', () => {
    expect(formatGwei('1.242396371')).toBe('1.24');
    expect(formatGwei('0.000123456')).toBe('0.000123');
    expect(formatGwei('1000')).toBe('1,000');
  });

  it('keeps four decimals: a balance held cut, a need rounded up', () => {
    expect(formatGas('2.500000000000000000')).toBe('2.5000 POL');
    expect(formatGas('0.000000000000001000')).toBe('< 0.0001 POL');
    expect(formatGas('0')).toBe('0.0000 POL');
    expect(formatGas('12.34567')).toBe('12.3456 POL');
    expect(formatGas('0.000000000000001000', 'needed')).toBe('0.0001 POL');
    expect(formatGas('12.34567', 'needed')).toBe('12.3457 POL');
  });
});
