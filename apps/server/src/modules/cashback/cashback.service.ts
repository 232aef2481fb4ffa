import {
  CASHBACK,
  DECIMALS,
  fromScaled,
  type MyInfo,
  type PendingRebates,
  type RebateStatus,
  type RewardPage,
  State,
  utcDay,
} from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { answerKind, keptForMember, keptPageForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { ValidationError } from '../../http/validation.js';
import { selectBindingDetailJson } from '../../read-models/binding-detail.js';
import { type EstimateSql, selectPendingByBinding } from '../../read-models/pending-estimates.js';
import { selectRebateList } from '../../read-models/rebate-list.js';
import { selectRewardList } from '../../read-models/reward-list.js';
import { EARNED_CASHBACK_JOURNAL_KINDS, EARNED_REWARD_JOURNAL_KINDS } from '../ledger/ledger.service.js';
import {
  keepCheckForMember,
  selectMemberSummary,
  sumTradingVolume,
  type TradingUid,
} from './cashback.repository.js';
import { estimateSql } from './estimate-sql.js';
import { maskEmail } from './mask-email.js';
import { loadPartners } from './partners.js';

/** The member views of issue 5 (docs/cashback.md, "Calls"). Amounts leave as 6-decimal strings. */

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
const DAY_MS = 24 * 60 * 60 * 1000;
/** BindingDetail.daily covers trading days from today back to the 89 days before it (UTC). */
const DAILY_SERIES_DAYS = 90;
/**
 * What the member's totals count: event rewards booked into `rewards:<userId>`, cashback booked into a
 * UID, each plus the operators' corrections of that account (a debit lowers the total).
 */

/** myInfo answers kept per process, by member (db/member-answers.ts). */
const MY_INFO = answerKind<MyInfo>('myInfo', 20_000);

/**
 * /elex/user/myInfo: live bindings with their kept balances, all-time rewards and cashback, in one
 * prepared query (selectMemberSummary). Kept in this process until the member changes: every line
 * posted to the member's accounts and every change of the member's bindings notifies (triggers of
 * migration 0028_member_notify).
 */
export async function myInfo(deps: AppDeps, userId: number): Promise<MyInfo> {
  return keptForMember(deps.memberAnswers, MY_INFO, userId, () => readMyInfo(deps, userId), {
    keepable: () => keepCheckForMember(deps.db, userId),
  });
}

async function readMyInfo(deps: AppDeps, userId: number): Promise<MyInfo> {
  const summary = await selectMemberSummary(deps.db, userId, {
    reward: EARNED_REWARD_JOURNAL_KINDS,
    cashback: EARNED_CASHBACK_JOURNAL_KINDS,
  });
  const answer: MyInfo = {
    exchangeBinds: summary.bindings.map((binding) => ({
      platId: binding.platId,
      uid: binding.uid,
      balance: usdt(binding.balance),
      address: binding.address,
      boundAt: binding.boundAt.toISOString(),
    })),
    totalReward: usdt(summary.totalRewardMicro),
    totalRebate: usdt(summary.bindings.reduce((sum, binding) => sum + binding.credited, 0n)),
  };
  // Frozen: a kept answer is every later call's answer.
  for (const binding of answer.exchangeBinds) Object.freeze(binding);
  Object.freeze(answer.exchangeBinds);
  return Object.freeze(answer);
}

/**
 * A record list's or a binding detail's text as kept for its member (db/member-answers.ts): with the
 * estimate it was read with (today's partner rates, the catalog kept 30 s): a kept answer read with
 * other rates is read again, as an uncached call would show the new rates.
 */
interface KeptText {
  text: string;
  estimate: EstimateSql;
  /** The detail's ownership hold's end (ms), while one shows: past it, the answer is read again. */
  heldUntil?: number;
}

/** About 2 bytes a character in memory (V8 strings of JSON are mostly one byte; the bound is loose). */
const keptTextSize = (kept: KeptText) => kept.text.length * 2 + 64;

/**
 * Binding details kept per process, by member, exchange, UID and UTC day (the daily series starts 89
 * days before today): 20,000 at most and 64 MiB (a detail is 1–4 KB: its 90 days).
 */
const BINDING_DETAIL = answerKind<KeptText>('seeRebateByExchangeId', 20_000, {
  maxBytes: 64 * 1024 * 1024,
  sizeOf: keptTextSize,
});

/**
 * /elex/user/seeRebateByExchangeId: the member's own live binding of a UID, in one statement, as the
 * answer's `content` text (a BindingDetail written by PostgreSQL, read-models/binding-detail.ts): the
 * route splices it into the envelope (issue 14). Kept in this process until the member changes (the
 * binding, its ledger lines, its records, its roster line, a dispute of it: migrations 0028 and
 * 0053_member_notify_records), for the UTC day, with the rates it was read with, and while the
 * ownership hold it shows has not passed. 'Not found' is a refusal: never kept.
 */
export async function bindingDetailJson(
  deps: AppDeps,
  userId: number,
  input: { platId: number; uid: string },
): Promise<string> {
  const now = deps.clock.now();
  const today = utcDay(now);
  const estimate = estimateSql(await loadPartners(deps));
  const kept = await keptForMember(
    deps.memberAnswers,
    BINDING_DETAIL,
    userId,
    () => readBindingDetail(deps, userId, input, estimate, now),
    {
      key: JSON.stringify([userId, input.platId, input.uid, today]),
      stillValid: (value) =>
        value.estimate === estimate &&
        (value.heldUntil === undefined || value.heldUntil > deps.clock.now().getTime()),
      keepable: () => keepCheckForMember(deps.db, userId),
    },
  );
  return kept.text;
}

async function readBindingDetail(
  deps: AppDeps,
  userId: number,
  input: { platId: number; uid: string },
  estimate: EstimateSql,
  now: Date,
): Promise<KeptText> {
  const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
  const detail = await selectBindingDetailJson(deps.db, {
    userId,
    platId: input.platId,
    uid: input.uid,
    sinceDay: new Date(today - (DAILY_SERIES_DAYS - 1) * DAY_MS).toISOString().slice(0, 10),
    creditedKinds: EARNED_CASHBACK_JOURNAL_KINDS,
    estimate,
    now,
  });
  // Anything but the member's own live binding is 'not found' (state 1004).
  if (detail === undefined) throw new AppError(State.NotFound, 'notFound');
  const { heldUntil } = JSON.parse(detail) as { heldUntil: string | null };
  return Object.freeze({
    text: detail,
    estimate,
    ...(heldUntil === null ? {} : { heldUntil: Date.parse(heldUntil) }),
  });
}

/** A YYYY-MM-DD day (the contract checked the shape) as its UTC midnight; an impossible date is invalid. */
function parseDay(field: string, day: string): number {
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) {
    throw new ValidationError(field, 'invalidValue');
  }
  return time;
}

export interface RebateQueryInput {
  platId?: number | undefined;
  uid?: string | undefined;
  status?: RebateStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  pageSize: number;
  /** A record's id: the records after it, for a walk of the whole list. */
  after?: string | undefined;
}

/**
 * Record pages kept per process: pages 1 to 3 by number of each filter a member asks
 * for (a walk by cursor, the export, is read every time): 20,000 at most and 128 MiB (a page of 20
 * records is about 8 KB, one of 100 about 40 KB; an export's first page of up to 1,000 records, 400 KB,
 * is kept too, and counts by its size).
 */
const REBATE_PAGES = answerKind<KeptText>('seeRebateData', 20_000, {
  maxBytes: 128 * 1024 * 1024,
  sizeOf: keptTextSize,
});

/**
 * /elex/user/seeRebateData: records of the member's live bindings, newest period first (two
 * statements), as the answer's `content` text (a RebatePage): PostgreSQL wrote the records' JSON array,
 * spliced here as is, so a 100-record export page is neither parsed nor serialized by the app (issue 14).
 * The first pages of each filter are kept in this process until the member changes (their bindings,
 * the records of their UIDs, their roster lines: migrations 0028 and 0053_member_notify_records), with
 * the rates their pending records were estimated at. Nothing in a page depends on the clock. Refusals
 * (too deep, a cursor not seen, an impossible day) are exceptions: never kept.
 */
export async function rebateRecordsJson(
  deps: AppDeps,
  userId: number,
  query: RebateQueryInput,
): Promise<string> {
  const estimate = estimateSql(await loadPartners(deps));
  const load = async () =>
    Object.freeze({ text: await readRebateRecords(deps, userId, query, estimate), estimate });
  // A walk by cursor (the export) is read every time: its key would be every record it passed.
  if (query.after !== undefined) return (await load()).text;
  const kept = await keptPageForMember(
    deps.memberAnswers,
    REBATE_PAGES,
    userId,
    {
      page: query.page,
      pageSize: query.pageSize,
      filter: [
        query.platId ?? null,
        query.uid ?? null,
        query.status ?? null,
        query.from ?? null,
        query.to ?? null,
      ],
    },
    load,
    {
      stillValid: (value) => value.estimate === estimate,
      keepable: () => keepCheckForMember(deps.db, userId),
    },
  );
  return kept.text;
}

async function readRebateRecords(
  deps: AppDeps,
  userId: number,
  query: RebateQueryInput,
  estimate: EstimateSql,
): Promise<string> {
  const endFrom = query.from === undefined ? undefined : new Date(parseDay('from', query.from));
  const endBefore = query.to === undefined ? undefined : new Date(parseDay('to', query.to) + DAY_MS);
  const list = await selectRebateList(
    deps.db,
    { userId, platId: query.platId, uid: query.uid, status: query.status, endFrom, endBefore },
    query.after === undefined
      ? { offset: (query.page - 1) * query.pageSize, limit: query.pageSize }
      : { after: Number(query.after), limit: query.pageSize },
    estimate,
  );
  // A walk cannot go on from a record the member does not see: refused, not an empty page that would
  // pass for the list's end (an export would then say it is complete).
  if (list === 'cursorNotSeen') throw new ValidationError('after', 'invalidValue');
  // A page number deep between the list's ends: refused as bad input, naming the reach and the way on
  // (`after`); the content tells a client this refusal from a refused cursor (issue 14).
  if (list.tooDeep) {
    throw new AppError(
      State.ValidationFailed,
      'rebatePageTooDeep',
      { page: query.page, total: list.total, reach: CASHBACK.pageReach },
      { messageKey: 'rebatePageTooDeep' },
    );
  }
  // The page's last record when a record follows it (the statement read one more): the page that ends
  // the list, full or not, has none, so a walk ends on its last records without asking for an empty page.
  const next = list.more ? list.lastId : null;
  // RebatePage's keys in its order, as JSON.stringify writes them (the numbers are integers).
  return `{"records":${list.recordsJson},"total":${list.total},"page":${query.page},"pageSize":${query.pageSize},"next":${next === null ? 'null' : JSON.stringify(next)}}`;
}

/** An expireRebate answer as kept, with the estimate (today's partner rates) it was read with. */
interface KeptPending {
  answer: PendingRebates;
  estimate: EstimateSql;
}

/** expireRebate answers kept per process, by member and exchange asked (a few hundred bytes each). */
const PENDING_REBATES = answerKind<KeptPending>('expireRebate', 20_000);

/**
 * /elex/exchange/expireRebate: the estimate of pending records per live binding, in one statement.
 * Kept in this process until the member changes, as the binding detail whose estimate it repeats
 * (the bindings, their records and roster lines: migrations 0028, 0053 and 0055), and with the rates
 * it was read with: an answer read with other rates is read again.
 */
export async function pendingRebates(
  deps: AppDeps,
  userId: number,
  input: { platId?: number | undefined },
): Promise<PendingRebates> {
  const estimate = estimateSql(await loadPartners(deps));
  const kept = await keptForMember(
    deps.memberAnswers,
    PENDING_REBATES,
    userId,
    async () => ({ answer: await readPendingRebates(deps, userId, input.platId, estimate), estimate }),
    {
      key: JSON.stringify([userId, input.platId ?? null]),
      stillValid: (value) => value.estimate === estimate,
      keepable: () => keepCheckForMember(deps.db, userId),
    },
  );
  return kept.answer;
}

async function readPendingRebates(
  deps: AppDeps,
  userId: number,
  platId: number | undefined,
  estimate: EstimateSql,
): Promise<PendingRebates> {
  const bindings = await selectPendingByBinding(deps.db, userId, platId, estimate);
  let total = 0n;
  const pending = bindings.map((binding) => {
    total += binding.pendingMicro;
    return Object.freeze({ platId: binding.platId, uid: binding.uid, amount: usdt(binding.pendingMicro) });
  });
  // Frozen: a kept answer is every later call's answer.
  return Object.freeze({ pending: Object.freeze(pending) as PendingRebates['pending'], total: usdt(total) });
}

/** A reward is ~150 bytes as JSON; 20,000 pages and 32 MiB at most per process. */
const REWARD_PAGES = answerKind<RewardPage>('seeRewardData', 20_000, {
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (value) => 200 + value.records.length * 150,
});

type RewardQuery = { page: number; pageSize: number };

/**
 * /elex/user/seeRewardData: event rewards, newest first; an invite bonus names the friend, masked.
 * Pages 1 to 3 are kept in this process by member and request until the member changes: a reward
 * booked (or the kept count changed by hand) names its member, a source friend's e-mail change or
 * account deletion names their inviter (migration 0056_member_notify_friends). Nothing in it depends
 * on the clock or on configuration. Kept values are frozen.
 */
export async function rewardRecords(deps: AppDeps, userId: number, query: RewardQuery): Promise<RewardPage> {
  return keptPageForMember(
    deps.memberAnswers,
    REWARD_PAGES,
    userId,
    { page: query.page, pageSize: query.pageSize, filter: [] },
    () => readRewardRecords(deps, userId, query),
  );
}

async function readRewardRecords(deps: AppDeps, userId: number, query: RewardQuery): Promise<RewardPage> {
  const { rows, total } = await selectRewardList(deps.db, userId, {
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return Object.freeze({
    records: Object.freeze(
      rows.map((row) =>
        Object.freeze({
          id: String(row.id),
          kind: row.kind,
          amount: usdt(row.amountMicro),
          source: row.sourceUserId === null || row.sourceEmail === null ? null : maskEmail(row.sourceEmail),
          createdAt: row.createdAt.toISOString(),
        }),
      ),
    ),
    total,
    page: query.page,
    pageSize: query.pageSize,
  }) as RewardPage;
}

// ---------------------------------------------------------------------------------------------------
// Figures other modules read (tasks: trading volume)

/**
 * The cumulative trading volume (micro-USDT) of these UIDs (a member's live bindings, each from its
 * `volumeFrom`: after another member's binding of the UID ended): every rebate record the exchanges
 * reported for them, whatever its settlement status (a record that paid no cashback still had its
 * trades).
 */
export function tradingVolumeOf(db: Executor, pairs: readonly TradingUid[]): Promise<bigint> {
  return sumTradingVolume(db, pairs);
}
