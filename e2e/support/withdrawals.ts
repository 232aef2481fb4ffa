import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runOps, startServer } from './server.js';
import { waitForCode } from './smtp-capture.js';

/**
 * Members with money to withdraw, for journeys that need a balance (the member's withdrawal here, an
 * operator's decision in the console). No test-only endpoint: the money comes the way it does in
 * production, through the operator's CSV commands, which need the embedded database to themselves:
 *
 *   1. a server on `dataDir` seeds the catalog; the members register over the API (codes from the SMTP
 *      capture); the server stops;
 *   2. `referrals:import` puts each member's UID in the Bitget roster, `rebates:import` credits it;
 *   3. the caller starts the server again on `dataDir` with the same `appSecret`, and each member
 *      binds their UID (`bindUid`) and withdraws in the browser or over the API (`requestWithdrawal`).
 *
 * A new binding's money is held for the ownership check (OWNERSHIP.holdDays, docs/support.md), so
 * `bindUid` also has the member send an ownership request that the returned `reviewer` (one more
 * account, made an operator on the command line in step 2) confirms, as a support operator would.
 */
export const BITGET = { platId: 4, name: 'Bitget' } as const;
/** EIP-55's own test vector: a well-formed address nobody uses. */
export const RECEIVING_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const MEMBER_PASSWORD = 'withdraw1!';

export interface WithdrawingMember {
  email: string;
  password: string;
  token: string;
  uid: string;
  /** USDT credited to the UID, e.g. "150". */
  cashback: string;
}

export interface Envelope {
  state: number;
  message: string;
  content: Record<string, unknown> | null;
}

export async function post(base: string, pathName: string, body: unknown, token?: string): Promise<Envelope> {
  const response = await fetch(`${base}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope;
}

function expectSuccess(answer: Envelope, what: string) {
  if (answer.state !== 0) throw new Error(`${what}: state ${answer.state} ${answer.message}`);
  return answer;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const iso = (time: number) => new Date(time).toISOString();

/**
 * Steps 1 and 2 above: `count` members, each with a UID in the Bitget roster holding `cashback` USDT
 * (one settled day: fee twice the cashback, commission equal to it, at Bitget's 50 %). The server is
 * stopped when this returns.
 */
export async function seedWithdrawingMembers(options: {
  dataDir: string;
  appSecret: string;
  smtp: { url: string; dir: string };
  count: number;
  cashback: string;
  /**
   * Hourly records without commission (failed, nothing paid) for the first member, before the paid
   * one: a records list longer than one page of the CSV export.
   */
  failedRecordsOfFirst?: number;
}): Promise<WithdrawingMember[] & { reviewer: WithdrawingMember }> {
  const { dataDir, appSecret, smtp } = options;
  const tag = randomBytes(3).toString('hex');
  const members: WithdrawingMember[] = [];
  const server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  try {
    // One more than asked: the last is the reviewer.
    for (let index = 0; index <= options.count; index += 1) {
      const email = `withdraw-${tag}-${index}@example.com`;
      const sentAt = Date.now();
      expectSuccess(await post(server.url, '/elex/user/verifyCode', { module: 1, email }), 'verifyCode');
      const authcode = await waitForCode(email, sentAt, 20_000, smtp.dir);
      const registered = expectSuccess(
        await post(server.url, '/elex/user/register', { email, passwd: MEMBER_PASSWORD, authcode }),
        'register',
      );
      members.push({
        email,
        password: MEMBER_PASSWORD,
        token: String(registered.content?.token),
        uid: `88${tag.replace(/\D/g, '').padEnd(3, '7').slice(0, 3)}${String(Date.now()).slice(-5)}${index}`,
        cashback: options.cashback,
      });
    }
  } finally {
    await server.stop();
  }

  const now = Date.now();
  const today = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate(),
  );
  const write = (name: string, lines: string[]) => {
    const file = path.join(path.dirname(dataDir), `${path.basename(dataDir)}-${name}.csv`);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  const roster = write('referrals', [
    'uid,registered_at',
    ...members.map((member) => `${member.uid},${iso(now - 60 * DAY_MS)}`),
  ]);
  const first = members[0];
  const failed = Array.from({ length: first ? (options.failedRecordsOfFirst ?? 0) : 0 }, (_, hour) => {
    // After the roster's registration (60 days ago), all ended days before the paid record.
    const start = today - 50 * DAY_MS + hour * HOUR_MS;
    return `${first?.uid},${iso(start)},${iso(start + HOUR_MS)},1000,1,0`;
  });
  const figures = write('rebates', [
    'uid,period_start,period_end,trading_volume,fee,commission',
    ...failed,
    ...members.map(
      (member) =>
        `${member.uid},${iso(today - 5 * DAY_MS)},${iso(today - 4 * DAY_MS)},100000,${Number(member.cashback) * 2},${member.cashback}`,
    ),
  ]);
  // The first grant is the bootstrap (no operator exists yet); the imports then run as that operator.
  const reviewer = members.pop() as WithdrawingMember;
  await runOps(['admin:grant', reviewer.email], { dataDir, appSecret });
  await runOps(['referrals:import', BITGET.name, roster, '--operator', reviewer.email], {
    dataDir,
    appSecret,
  });
  await runOps(['rebates:import', BITGET.name, figures, '--operator', reviewer.email], {
    dataDir,
    appSecret,
  });
  return Object.assign(members, { reviewer });
}

/**
 * Binds the member's UID to the receiving address over the API (the server runs again), and has its
 * ownership confirmed: the member's ownership request, the reviewer's confirmation in the console.
 */
export async function bindUid(
  base: string,
  member: WithdrawingMember,
  reviewer: WithdrawingMember,
  address = RECEIVING_ADDRESS,
) {
  expectSuccess(
    await post(
      base,
      '/elex/user/bindExchangeUid',
      { platId: BITGET.platId, uid: member.uid, address },
      member.token,
    ),
    'bindExchangeUid',
  );
  const request = expectSuccess(
    await post(
      base,
      '/elex/support/create',
      {
        kind: 'ownership',
        platId: BITGET.platId,
        uid: member.uid,
        text: 'My exchange account, as a screenshot.',
      },
      member.token,
    ),
    'support/create',
  );
  expectSuccess(
    await post(base, '/elex/admin/support/verifyOwnership', { id: request.content?.id }, reviewer.token),
    'support/verifyOwnership',
  );
}

/** A withdrawal under review, requested over the API with a code from the capture; answers its id. */
export async function requestWithdrawal(
  base: string,
  member: WithdrawingMember,
  amount: string,
  smtpDir: string,
): Promise<string> {
  const sentAt = Date.now();
  expectSuccess(await post(base, '/elex/user/verifyCode', { module: 3 }, member.token), 'verifyCode');
  const authCode = await waitForCode(member.email, sentAt, 20_000, smtpDir);
  const applied = expectSuccess(
    await post(
      base,
      '/elex/user/applyDeposit',
      {
        requestId: crypto.randomUUID(),
        platId: BITGET.platId,
        uid: member.uid,
        address: RECEIVING_ADDRESS,
        amount,
        authCode,
      },
      member.token,
    ),
    'applyDeposit',
  );
  return String(applied.content?.id);
}
