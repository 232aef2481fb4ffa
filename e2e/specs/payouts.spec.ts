import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  deployTestUsdt,
  type LocalChain,
  mintUsdt,
  setGasBalance,
  startLocalChain,
  usdtBalance,
} from '../../apps/server/src/test/chain/local-chain.js';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { test } from '../support/fixtures.js';
import { openAs } from '../support/open-as.js';
import { type RunningServer, startServer } from '../support/server.js';
import { mailsTo, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';
import {
  bindUid,
  RECEIVING_ADDRESS,
  requestWithdrawal,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from '../support/withdrawals.js';

/**
 * On-chain payouts end to end (issue 17): a real local EVM (Hardhat's network in this process, chain
 * id 137) with a 6-decimal test USDT, and a production server of its own with a payout key. The
 * operator sends a pending withdrawal from the console; the member watches it go from confirming to
 * completed on the withdrawal page while blocks are mined; the USDT arrives at the member's address
 * and the member is mailed the hash.
 */
const CONFIRMATIONS = 3;
const appSecret = randomBytes(24).toString('hex');
let root: string;
let smtp: SmtpCapture;
let chain: LocalChain;
let token: `0x${string}`;
let server: RunningServer | undefined;
let member: WithdrawingMember;
let operator: WithdrawingMember;
let withdrawalId: string;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-payouts-'));
  const dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  chain = await startLocalChain();
  token = await deployTestUsdt(chain);
  const key = generatePrivateKey();
  const wallet = privateKeyToAccount(key).address;
  await setGasBalance(chain, wallet, 10n ** 21n);
  await mintUsdt(chain, token, wallet, 10_000_000_000n);

  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 1, cashback: '150' });
  member = seeded[0] as WithdrawingMember;
  operator = seeded.reviewer;
  // The key through a file, as the runbook asks (mode 0400), not the environment.
  const keyFile = path.join(root, 'payout.key');
  fs.writeFileSync(keyFile, key, { mode: 0o400 });
  server = await startServer({
    smtpUrl: smtp.url,
    dataDir,
    appSecret,
    env: {
      PAYOUT_PRIVATE_KEY_FILE: keyFile,
      PAYOUT_RPC_URLS: chain.url,
      PAYOUT_TOKEN_ADDRESS: token,
      PAYOUT_CONFIRMATIONS: String(CONFIRMATIONS),
      PAYOUT_POLL_SECONDS: '0.5',
      // On, so the queue says why it leaves this withdrawal to the operator (a new account).
      PAYOUT_FAST_LANE_MAX_USDT: '100',
    },
  });
  await bindUid(server.url, member, operator);
  withdrawalId = await requestWithdrawal(server.url, member, '80', smtp.dir);
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  await chain?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test(
  'the operator sends a withdrawal on chain and the member watches it confirm',
  async ({ newPage }) => {
    const base = (server as RunningServer).url;
    const desk = await newPage({ viewport: 'desktop' });
    await openAs(base, desk, operator, '/admin/withdrawals');
    const walletPanel = desk.getByRole('region', { name: 'Payout wallet' });
    await walletPanel.getByText('10,000.00', { exact: true }).waitFor();
    await walletPanel.getByText('1 · 80.00 USDT').waitFor();
    await expectNoSeriousA11yViolations(desk, '/admin/withdrawals with a payout wallet');

    const item = desk.getByRole('article').filter({ hasText: `#${withdrawalId}` });
    await item.getByText('Waits: the account is too new for the lane yet', { exact: true }).waitFor();
    await item.getByRole('button', { name: 'Send on chain', exact: true }).click();
    const dialog = desk.getByRole('dialog', { name: 'Send on chain' });
    await dialog.getByText('A transfer on chain cannot be called back', { exact: false }).waitFor();
    await expectNoSeriousA11yViolations(desk, 'the send dialog');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await desk
      .getByText(`completes after ${CONFIRMATIONS} confirmations`, { exact: false })
      .first()
      .waitFor();
    // Automine put it in a block at once; the tracker counts it, and the queue follows by itself.
    await item.getByText(`1 of ${CONFIRMATIONS} confirmations`).waitFor({ timeout: 20_000 });
    assert.equal(await item.getByRole('button').count(), 0, 'no decision while the payout is on its way');
    const hash = (await item.getByRole('link', { name: /^0x[0-9a-f]{64}$/ }).innerText()).trim();
    assert.equal(await usdtBalance(chain, token, RECEIVING_ADDRESS), 80_000_000n, 'the USDT arrived');

    // The member, on a phone, sees it confirming with its transaction, and no cancel button.
    const phone = await newPage({ viewport: 'mobile' });
    await openAs(base, phone, member, '/withdrawal');
    const list = phone.getByRole('list', { name: 'Your withdrawals' });
    await list.getByText('Confirming', { exact: true }).waitFor({ timeout: 20_000 });
    await list.getByText(`1 of ${CONFIRMATIONS} confirmations`).waitFor();
    const link = list.getByRole('link', { name: /View the transaction on Polygonscan/ });
    assert.equal(await link.getAttribute('href'), `https://polygonscan.com/tx/${hash}`);
    assert.equal(await list.getByRole('button').count(), 0, 'a payout on its way cannot be cancelled');
    await expectNoSeriousA11yViolations(phone, '/withdrawal with a payout confirming');

    // Two more blocks: final. The page turns to completed without a reload.
    await chain.test.mine({ blocks: CONFIRMATIONS - 1 });
    await list.getByText('Completed', { exact: true }).waitFor({ timeout: 30_000 });
    assert.equal(await list.getByText('Confirming', { exact: true }).count(), 0);
    // The console follows too: out of the queue under review, into the completed ones, confirmed.
    await item.waitFor({ state: 'detached', timeout: 20_000 });
    await walletPanel.getByText('0 · 0.00 USDT').first().waitFor({ timeout: 20_000 });
    await desk.getByLabel('Status').selectOption('completed');
    const paid = desk.getByRole('article').filter({ hasText: `#${withdrawalId}` });
    await paid.getByText('Confirmed', { exact: true }).waitFor();

    // The wallet against the chain: the one transfer out is this payout.
    const onChain = desk.getByRole('region', { name: 'The wallet on chain' });
    await onChain.getByRole('button', { name: 'Check again' }).click();
    await onChain.getByText('Transfers out of the wallet: 1, 80.00 USDT', { exact: false }).waitFor();
    await onChain
      .getByText('Every transfer out of the wallet is exactly one payout', { exact: false })
      .waitFor();

    // The mail goes only now, with the hash.
    let completed = mailsTo(member.email, smtp.dir).find((mail) => mail.text.includes(hash));
    for (let tries = 0; !completed && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      completed = mailsTo(member.email, smtp.dir).find((mail) => mail.text.includes(hash));
    }
    assert.ok(completed, 'the member is mailed the transaction once it is final');
    // Two pages, three axe checks and blocks mined while both poll: past the default 60 s at load 10,
    // and 97 s in a whole suite (2026-12-02).
  },
  { timeout: 180_000 },
);
