/**
 * Every read a member makes, at -c 50 against the bench's data (issue 14: each member call p99 ≤ 20 ms
 * at a million rebate rows, with the statistics the import leaves). Used by bench/data.ts once the
 * import is done: each call with the body the web sends, for a heavy trader (UIDs holding a large
 * share of the rows) and a typical member, on an app keeping member answers (MEMBER_CACHE=on: the
 * session, myInfo, getSettings, profile, isSignTody, withdrawable, seeRebateByExchangeId,
 * seeRebateData's, pointsHistory's, depositRecord's, myFriends' and seeRewardData's pages 1–3 by number and signHistory come from memory after the
 * first call) and on one reading the
 * database every time (MEMBER_CACHE=off), in turns. Knobs: BENCH_CALL_SECONDS (default 2), BENCH_CALL_ROUNDS (default
 * 2), BENCH_CALLS (a regular expression over the call labels: measure only those); BENCH_COMPARE (the
 * path of another checkout, e.g. a worktree of main, installed) runs that checkout's app beside this
 * one's on the same data, in the same turns: before and after a change, side by side.
 */

import autocannon from 'autocannon';
import { API } from '../packages/contract/src/api-paths.js';
import { CASHBACK } from '../packages/contract/src/constants.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_CALL_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_CALL_ROUNDS ?? 2);
/** The issue's target for every member call. */
const P99_TARGET_MS = 20;

export interface BenchMember {
  label: string;
  token: string;
  platId: number;
  /** The member's bound UIDs, the heaviest first. */
  uids: string[];
  /** Rebate records of those UIDs in the file. */
  rows: number;
}

/** Where the CSV export's walk of 100-record pages ends, its middle, and the cursor of the middle. */
interface ExportWalk {
  lastExportPage: number;
  middlePage: number;
  middleCursor: string | undefined;
}

interface MemberCall {
  label: string;
  path: string;
  body: Record<string, unknown>;
}

/** What the member's pages send (apps/web/src/features/<f>/api): the page sizes and filters they use. */
function memberCalls(member: BenchMember, exportWalk: ExportWalk): MemberCall[] {
  const { lastExportPage, middlePage, middleCursor } = exportWalk;
  // The deepest page of 100 by number from the newest end: deeper ones, up to the oldest
  // CASHBACK.pageReach records, are refused (issue 14), the middle of a long list among them.
  const reachPage = Math.max(1, Math.min(middlePage, CASHBACK.pageReach / 100));
  const [uid] = member.uids;
  const today = new Date();
  const monthAgo = new Date(today.getTime() - 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return [
    { label: 'myInfo', path: API.userMyInfo, body: {} },
    { label: 'profile', path: API.userProfile, body: {} },
    { label: 'getSettings', path: API.userGetSettings, body: {} },
    { label: 'isSignTody', path: API.userIsSignTody, body: {} },
    { label: 'withdrawable', path: API.userWithdrawable, body: {} },
    {
      label: 'seeRebateByExchangeId',
      path: API.userSeeRebateByExchangeId,
      body: { platId: member.platId, uid },
    },
    { label: 'seeRebateData page 1', path: API.userSeeRebateData, body: { page: 1, pageSize: 20 } },
    {
      label: 'seeRebateData exchange+completed',
      path: API.userSeeRebateData,
      body: { platId: member.platId, status: 'completed', page: 1, pageSize: 20 },
    },
    {
      label: 'seeRebateData pending',
      path: API.userSeeRebateData,
      body: { status: 'pending', page: 1, pageSize: 20 },
    },
    {
      label: 'seeRebateData failed',
      path: API.userSeeRebateData,
      body: { status: 'failed', page: 1, pageSize: 20 },
    },
    {
      label: 'seeRebateData uid+30 days p2',
      path: API.userSeeRebateData,
      body: { platId: member.platId, uid, from: monthAgo, page: 2, pageSize: 20 },
    },
    {
      label: `seeRebateData export last page (${lastExportPage})`,
      path: API.userSeeRebateData,
      body: { page: lastExportPage, pageSize: 100 },
    },
    {
      // Not the middle page by number: that is refused once it lies wholly between the newest and the
      // oldest CASHBACK.pageReach records (issue 14); the cursor below reads the middle.
      label: `seeRebateData page by number at the reach (${reachPage})`,
      path: API.userSeeRebateData,
      body: { page: reachPage, pageSize: 100 },
    },
    {
      // The web's export asks for the records after the previous page's last: the middle page.
      label: `seeRebateData export middle (${middlePage}) by cursor`,
      path: API.userSeeRebateData,
      body: { pageSize: 100, ...(middleCursor ? { after: middleCursor } : {}) },
    },
    { label: 'expireRebate', path: API.exchangeExpireRebate, body: {} },
    { label: 'seeRewardData', path: API.userSeeRewardData, body: { page: 1, pageSize: 20 } },
    { label: 'seeAdjustments', path: API.userSeeAdjustments, body: { page: 1, pageSize: 20 } },
    { label: 'getExchangeTaskDetail', path: API.exchangeGetExchangeTaskDetail, body: {} },
    { label: 'pointsHistory', path: API.activityPointsHistory, body: { page: 1, pageSize: 20 } },
    { label: 'signHistory', path: API.activitySignHistory, body: {} },
    { label: 'getMyInviteCode', path: API.userGetMyInviteCode, body: {} },
    { label: 'getInviteLink', path: API.userGetInviteLink, body: {} },
    { label: 'myFriends', path: API.userMyFriends, body: { page: 1, pageSize: 20 } },
    { label: 'depositRecord', path: API.exchangeDepositRecord, body: { page: 1, pageSize: 20 } },
    { label: 'supportList', path: API.supportList, body: { page: 1, pageSize: 20 } },
  ];
}

interface Load {
  rps: number;
  p99: number;
  failed: number;
}

async function post(base: string, token: string, call: Pick<MemberCall, 'path' | 'body'>) {
  const response = await fetch(`${base}${call.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en', token },
    body: JSON.stringify(call.body),
  });
  const text = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(text), envelope: JSON.parse(text) };
}

async function load(base: string, token: string, call: MemberCall, seconds: number): Promise<Load> {
  const result = await autocannon({
    url: `${base}${call.path}`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    body: JSON.stringify(call.body),
    headers: { 'content-type': 'application/json', lang: 'en', token },
  });
  return { rps: result.requests.average, p99: result.latency.p99, failed: result.non2xx + result.errors };
}

/** The page of 100 records ending at `end` in the list, walked to by cursor (pages of the export's size). */
async function recordsBefore(base: string, token: string, end: number): Promise<{ id: string }[]> {
  let after: string | undefined;
  let read = 0;
  while (read + CASHBACK.exportPageSize < end) {
    const { envelope } = await post(base, token, {
      path: API.userSeeRebateData,
      body: { pageSize: CASHBACK.exportPageSize, ...(after ? { after } : {}) },
    });
    after = envelope.content?.next ?? undefined;
    read += CASHBACK.exportPageSize;
    if (!after) return [];
  }
  const { envelope } = await post(base, token, {
    path: API.userSeeRebateData,
    body: { pageSize: end - read, ...(after ? { after } : {}) },
  });
  return ((envelope.content?.records ?? []) as { id: string }[]).slice(-100);
}

/**
 * The records' CSV export as one visitor makes it, every page one after another on one app, wall time
 * of each walk: pages of 100 by number (before issue 14's cursor; it stops at the first page refused beyond the reach of page numbers), by cursor, and as the web walks now
 * (by cursor in pages of CASHBACK.exportPageSize, records-page.tsx).
 */
async function exportWalks(base: string, token: string): Promise<string> {
  const walk = async (byCursor: boolean, pageSize: number) => {
    const started = performance.now();
    let records = 0;
    let after: string | undefined;
    for (let page = 1; page <= 10_000; page += 1) {
      const body = byCursor ? { pageSize, ...(after ? { after } : {}) } : { page, pageSize };
      const { envelope } = await post(base, token, { path: API.userSeeRebateData, body });
      // A page number between the list's newest and oldest CASHBACK.pageReach records is refused.
      if (envelope.state !== 0) return `${fmt(records)}, then page ${page} refused`;
      const content = envelope.content as { records: { id: string }[]; next: string | null };
      records += content.records.length;
      after = content.next ?? undefined;
      if (content.records.length < pageSize || (byCursor && !after)) break;
    }
    return `${fmt(records)} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  };
  const byNumber = await walk(false, 100);
  const byCursor = await walk(true, 100);
  const asTheWeb = await walk(true, CASHBACK.exportPageSize);
  return `pages of 100 by number ${byNumber}, by cursor ${byCursor}; by cursor in pages of ${fmt(CASHBACK.exportPageSize)} ${asTheWeb}`;
}

const fmt = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const figure = (loads: Load[]) => {
  const p99 = median(loads.map((l) => l.p99));
  const worst = Math.max(...loads.map((l) => l.p99));
  return `${fmt(median(loads.map((l) => l.rps))).padStart(6)} req/s p99 ${String(p99).padStart(4)} ms (max ${worst})${p99 > P99_TARGET_MS ? ' *' : '  '}`;
};

/** An app under load: its label in the table and its address. */
export interface CallTarget {
  label: string;
  url: string;
}

/**
 * Measures every member call for each member on each app (e.g. `cached`: MEMBER_CACHE=on and
 * `uncached`: off, and the same of another checkout with BENCH_COMPARE), in interleaved turns; prints
 * one line per call and member, a column per app.
 */
export async function benchMemberCalls(
  targets: readonly CallTarget[],
  members: readonly BenchMember[],
): Promise<void> {
  const only = process.env.BENCH_CALLS ? new RegExp(process.env.BENCH_CALLS) : null;
  const probeUrl = (targets[targets.length - 1] as CallTarget).url;
  console.log(
    `  member calls, -c ${CONNECTIONS}, ${ROUNDS} interleaved rounds of ${SECONDS} s per app after a 1 s warm-up, median (max) p99; * above ${P99_TARGET_MS} ms:`,
  );
  for (const member of members) {
    const probe = await post(probeUrl, member.token, {
      path: API.userSeeRebateData,
      body: { page: 1, pageSize: 100 },
    });
    const total = Number(probe.envelope.content?.total ?? 0);
    const lastExportPage = Math.min(10_000, Math.max(1, Math.ceil(total / 100)));
    const middlePage = Math.max(1, Math.ceil(lastExportPage / 2));
    const beforeMiddle = await post(probeUrl, member.token, {
      path: API.userSeeRebateData,
      body: { page: middlePage - 1, pageSize: 100 },
    });
    // The middle by cursor: after the last record of the page before it (read by cursor when that page
    // is beyond the reach of page numbers).
    const beforeMiddleRecords = (beforeMiddle.envelope.content?.records ?? []) as { id: string }[];
    const records = beforeMiddleRecords.length
      ? beforeMiddleRecords
      : await recordsBefore(probeUrl, member.token, (middlePage - 1) * 100);
    const exportWalk = {
      lastExportPage,
      middlePage,
      middleCursor: middlePage > 1 ? records.at(-1)?.id : undefined,
    };
    console.log(
      `   ${member.label}: ${member.uids.length} UIDs, ${fmt(member.rows)} rebate rows (${fmt(total)} visible)`,
    );
    if (!only || only.test('export walk')) {
      console.log(
        `    export walk, one visitor (${targets[0]?.label}): ${await exportWalks(targets[0]?.url ?? probeUrl, member.token)}`,
      );
    }
    console.log(`    ${'call'.padEnd(44)} ${targets.map((target) => target.label.padEnd(42)).join(' ')}`);
    for (const call of memberCalls(member, exportWalk)) {
      if (only && !only.test(call.label)) continue;
      const answer = await post(probeUrl, member.token, call);
      if (answer.status !== 200 || answer.envelope.state !== 0) {
        console.log(
          `    ${call.label}: HTTP ${answer.status}, state ${answer.envelope.state} (${answer.envelope.message})`,
        );
        continue;
      }
      const loads: Load[][] = targets.map(() => []);
      for (const target of targets) await load(target.url, member.token, call, 1);
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [index, target] of targets.entries()) {
          loads[index]?.push(await load(target.url, member.token, call, SECONDS));
        }
      }
      const failed = loads.flat().reduce((sum, l) => sum + l.failed, 0);
      console.log(
        `    ${`${call.label} (${fmt(answer.bytes)} B)`.padEnd(44)} ${loads.map((l) => figure(l).padEnd(42)).join(' ')}${failed ? `  (${failed} failed)` : ''}`,
      );
    }
  }
}
