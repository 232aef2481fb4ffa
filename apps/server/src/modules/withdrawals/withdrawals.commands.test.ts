import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../../test/cli-process.js';
import { runCommandAs, testOperatorActor } from '../../test/ops-command.js';
import { createScratchDatabase } from '../../test/scratch-database.js';
import { listAudit } from '../admin/audit.service.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import {
  applyDeposit as applyDepositCall,
  createWithdrawalTestApp,
  fundedMember,
  moneyOf,
  ownCode,
  usdt,
} from './test-support.js';
import { checkWithdrawalInvariants } from './withdrawals.check.js';
import { withdrawalCommands } from './withdrawals.commands.js';

/** The operator commands withdrawals:list, withdrawals:approve and withdrawals:reject. */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createWithdrawalTestApp();
});
afterAll(() => ctx.close());

async function run(name: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const command = withdrawalCommands[name];
  if (!command) throw new Error(`no command ${name}`);
  const code = await runCommandAs(command, ctx.deps, args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const HASH = `0x${'5e'.repeat(32)}`;

describe('withdrawal commands', () => {
  it('list, pay and reject from the command line, recorded as decided there and audited', async () => {
    expect(await run('withdrawals:list')).toMatchObject({ code: 0, out: 'No pending withdrawals.' });

    const member = await fundedMember(ctx, { cashback: '150', rewards: '10' });
    const first = await applyDepositCall(ctx, member, { amount: '60', authCode: await ownCode(ctx, member) });
    const second = await applyDepositCall(ctx, member, {
      amount: '55.5',
      authCode: await ownCode(ctx, member),
    });
    const firstId = first.content?.id as string;
    const secondId = second.content?.id as string;

    const listed = await run('withdrawals:list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('2 pending withdrawals, oldest first');
    expect(listed.out.indexOf(`#${firstId} `)).toBeLessThan(listed.out.indexOf(`#${secondId} `));
    expect(listed.out).toContain(`60.000000 USDT  Bitget UID ${member.uid}`);
    expect(listed.out).toContain(member.email);

    expect(await run('withdrawals:approve', firstId)).toMatchObject({
      code: 2,
      err: expect.stringContaining('Usage'),
    });
    expect(await run('withdrawals:approve', firstId, '--tx', '0xabc')).toMatchObject({
      code: 1,
      err: 'Refused: Enter a transaction hash: 0x followed by 64 hexadecimal characters',
    });
    expect(await run('withdrawals:approve', firstId, '--tx', HASH)).toMatchObject({
      code: 0,
      out: expect.stringContaining(`Withdrawal ${firstId} paid: 60.000000 USDT`),
    });
    expect(await run('withdrawals:approve', firstId, `--tx=${HASH}`)).toMatchObject({
      code: 1,
      err: 'Refused: This withdrawal has already been decided',
    });
    expect(
      await run('withdrawals:reject', secondId, '--reason', 'Address belongs to a sanctioned service'),
    ).toMatchObject({
      code: 0,
      out: expect.stringContaining(`Withdrawal ${secondId} rejected`),
    });
    expect(await run('withdrawals:reject', '424242', '--reason', 'x')).toMatchObject({
      code: 1,
      err: 'Refused: Not found',
    });
    expect(await moneyOf(ctx, member)).toEqual({ cashback: usdt('90'), rewards: usdt('10'), hold: 0n });

    const all = await run('withdrawals:list', '--status', 'all');
    expect(all.out).toContain(`paid in ${HASH}`);
    expect(all.out).toContain('reason: Address belongs to a sanctioned service');
    expect(await run('withdrawals:list', '--status', 'paid')).toMatchObject({ code: 2 });
    expect(await run('withdrawals:list', '--verbose')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown option'),
    });
    expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);

    // Each decision is in the audit log under the operator who ran it; refusals wrote nothing.
    const audit = await listAudit(ctx.db, { page: 1, pageSize: 10 });
    const decisions = audit.rows.filter((row) => row.action.startsWith('withdrawal.'));
    expect(decisions.map((row) => [row.action, row.target])).toEqual(
      expect.arrayContaining([
        ['withdrawal.approve', `withdrawal:${firstId}`],
        ['withdrawal.reject', `withdrawal:${secondId}`],
      ]),
    );
    expect(decisions).toHaveLength(2);
    for (const row of decisions) {
      expect(row.actor).toBe(testOperatorActor.label);
      expect(row.before).toMatchObject({ status: 'pending' });
    }
    expect(decisions.find((row) => row.action === 'withdrawal.approve')?.after).toMatchObject({
      status: 'completed',
      txHash: HASH,
    });
  });
});

describe('npm run ops -- withdrawals:list (child process)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-withdrawals-cli-'));
    env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    delete env.ELEX_OPERATOR;
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'elex_wcli');
      env.DATABASE_URL = scratch.url;
      dropDatabase = scratch.drop;
    } else {
      env.DATA_DIR = path.join(dir, 'data');
    }
  });
  afterAll(async () => {
    await dropDatabase();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const runCli = (args: string[]) => runCliProcess(args, { env });

  it('is registered, migrates, lists and refuses like the functions', async () => {
    const listed = await runCli(['withdrawals:list', '--status', 'all']);
    expect(listed).toMatchObject({ code: 0, stdout: 'No withdrawals.\n' });
    // A decision names its operator; on a database without one it says how the first is made.
    const refused = await runCli(['withdrawals:approve', '7', '--tx', HASH]);
    expect(refused).toMatchObject({
      code: 2,
      stderr:
        'withdrawals:approve changes data: name the operator running it with --operator <email|id> or ELEX_OPERATOR.\n' +
        'No operator exists yet: grant the first one with `npm run ops -- admin:grant <email>` (no --operator).\n',
    });
    const help = await runCli(['help']);
    expect(help.stdout).toContain('withdrawals:reject <id> --reason <text>');
  }, 180_000);
});
