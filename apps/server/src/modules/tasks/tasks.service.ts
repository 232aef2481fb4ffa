import {
  DECIMAL_PATTERN,
  DECIMALS,
  type FetchTaskStatusResponse,
  fromScaled,
  isAllowedAppLink,
  type MembershipStatus,
  type ReceiveScoreResponse,
  SOCIAL_ACCOUNT_ID_PATTERNS,
  type SocialNetwork,
  State,
  TASK_GROUPS,
  type Task,
  type TaskClaimState,
  type TaskDetail,
  type TaskVerification,
  toScaled,
} from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { answerKind, keptForMember } from '../../db/member-answers.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { ValidationError } from '../../http/validation.js';
import type { SocialConfig } from '../../integrations/social/config.js';
import { membershipClient } from '../../integrations/social/membership.js';
import { type ClaimedTask, selectMemberTaskFacts } from '../../read-models/member-task-facts.js';
import { liveBindingsOf, lockXmeUid, tradeVolumeFromSql, xmeUidOf } from '../bindings/bindings.service.js';
import { tradingVolumeOf } from '../cashback/cashback.service.js';
import { keepCheckForMember } from '../cashback/ingest.service.js';
import { balances, grantedReferences, grantPoints, hasEntry } from '../points/points.service.js';
import { isUidFrozen } from '../support/frozen.js';
import {
  deleteSocialAccountsOfUser,
  findSocialAccount,
  findTaskDefinition,
  insertPayout,
  isVerifiedForOther,
  lockTaskDefinitionRow,
  markSocialAccountVerified,
  saveSocialAccount,
  selectPayoutsOfAccounts,
  selectSocialAccounts,
  selectTaskDefinitions,
  type TaskDefinitionPatch,
  updateTaskDefinitionRow,
} from './tasks.repository.js';
import type { SocialAccountRow, TaskDefinitionRow } from './tasks.tables.js';

export type { TaskDefinitionRow } from './tasks.tables.js';

/** The points entry of a task: reason 'task', reference the task id, so a task pays a member once. */
const TASK_REASON = 'task';
const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

/**
 * The outside account a task is paid for, as `task_payouts` names it. Such an account earns its task
 * once, for one member, whoever holds it later.
 */
const accountKey = {
  social: (network: SocialNetwork, accountId: string) => `${network}:${accountId}`,
  xme: (xmeUid: string) => `xme:${xmeUid.toLowerCase()}`,
  uid: (binding: { platId: number; uid: string }) => `${binding.platId}:${binding.uid}`,
};
const payoutKey = (taskId: string, account: string) => `${taskId}\n${account}`;

/** What the member has done, read once per request. */
interface MemberFacts {
  volumeMicro: bigint;
  /** The accounts of the member's live UIDs, oldest first. */
  uids: string[];
  xme: string | null;
  social: Map<SocialNetwork, Pick<SocialAccountRow, 'network' | 'accountId' | 'verifiedAt'>>;
  /** Task and account pairs (payoutKey) another member was paid for. */
  paidToOthers: Set<string>;
  claimed: Set<string>;
}

function candidateAccounts(facts: Pick<MemberFacts, 'uids' | 'xme' | 'social'>): string[] {
  const social = [...facts.social.values()].map((row) => accountKey.social(row.network, row.accountId));
  return [...facts.uids, ...(facts.xme ? [facts.xme] : []), ...social];
}

async function payoutsToOthers(db: Executor, userId: number, accounts: string[]): Promise<Set<string>> {
  const rows = await selectPayoutsOfAccounts(db, accounts);
  return new Set(
    rows.filter((row) => row.userId !== userId).map((row) => payoutKey(row.taskId, row.account)),
  );
}

async function memberFacts(db: Executor, userId: number): Promise<MemberFacts> {
  const bindings = await liveBindingsOf(db, userId);
  const [volumeMicro, xmeUid, social, claimed] = await Promise.all([
    tradingVolumeOf(db, bindings),
    xmeUidOf(db, userId),
    selectSocialAccounts(db, userId),
    grantedReferences(db, userId, 'points', TASK_REASON),
  ]);
  const accounts = {
    uids: bindings.map(accountKey.uid),
    xme: xmeUid === null ? null : accountKey.xme(xmeUid),
    social: new Map(social.map((row) => [row.network, row])),
  };
  return {
    ...accounts,
    volumeMicro,
    paidToOthers: await payoutsToOthers(db, userId, candidateAccounts(accounts)),
    claimed,
  };
}

function networkOf(task: TaskDefinitionRow): SocialNetwork | null {
  return task.kind === 'telegram' || task.kind === 'discord' ? task.kind : null;
}

function verificationOf(task: TaskDefinitionRow, social: SocialConfig): TaskVerification {
  const network = networkOf(task);
  if (network) return social[network] ? 'bot' : 'unconfigured';
  return task.kind === 'x' ? 'none' : 'account';
}

/**
 * The accounts that would earn the member this task, best first, paid or not: the verified social
 * id, the XME UID, the live UIDs. Empty when the member has none (or the task is not paid for an
 * account: the X follow, trade volumes).
 */
function accountsFor(task: TaskDefinitionRow, facts: Omit<MemberFacts, 'claimed'>): string[] {
  switch (task.kind) {
    case 'telegram':
    case 'discord': {
      const row = facts.social.get(task.kind);
      return row?.verifiedAt ? [accountKey.social(task.kind, row.accountId)] : [];
    }
    case 'bindUid':
      return facts.uids;
    case 'bindXme':
      return facts.xme ? [facts.xme] : [];
    case 'x':
    case 'tradingVolume':
      return [];
  }
}

/** The account the member's claim of this task would be paid for: the first not paid to another. */
function payoutAccountFor(task: TaskDefinitionRow, facts: Omit<MemberFacts, 'claimed'>): string | undefined {
  return accountsFor(task, facts).find((account) => !facts.paidToOthers.has(payoutKey(task.id, account)));
}

/**
 * Whether the member did what the task asks. The X follow cannot be checked (no free API tells who
 * follows an account), so it is never done and never pays; a social task is done only once a bot saw
 * the member in the community. An account that already earned the task for another member does not
 * count: a UID an operator moved, an XME UID in another case.
 */
function isDone(task: TaskDefinitionRow, facts: Omit<MemberFacts, 'claimed'>): boolean {
  switch (task.kind) {
    case 'x':
      return false;
    case 'tradingVolume':
      return task.thresholdMicro !== null && facts.volumeMicro >= task.thresholdMicro;
    case 'telegram':
    case 'discord':
    case 'bindUid':
    case 'bindXme':
      return payoutAccountFor(task, facts) !== undefined;
  }
}

/** The tasks paid on the member's exchange UIDs: a claim of one is refused while a UID is disputed. */
function isPaidOnUids(task: TaskDefinitionRow): boolean {
  return task.kind === 'bindUid' || task.kind === 'tradingVolume';
}

function stateOf(task: TaskDefinitionRow, facts: MemberFacts): TaskClaimState {
  if (facts.claimed.has(task.id)) return 'claimed';
  if (!isDone(task, facts)) return task.kind === 'tradingVolume' ? 'unfinished' : 'unbound';
  return task.points > 0 ? 'claim' : 'bound';
}

/**
 * A task's card. A claimed task shows what its entry paid and, a trade tier, the threshold it was
 * claimed under, not the definition's present values: an operator raising tier 1 from 10,000 USDT /
 * 100 points to 50,000 / 300 made a member paid 100 points for 10,000 read "50,000 USDT, 300 points"
 * on the claimed card (found in red-team review, 2026-11-29). Tasks not claimed show what a claim
 * pays now.
 */
function toTask(
  task: TaskDefinitionRow,
  facts: MemberFacts,
  social: SocialConfig,
  hasDisputedUid: boolean,
  paid: ClaimedTask | undefined,
): Task {
  const network = networkOf(task);
  const isTrade = task.kind === 'tradingVolume';
  const state = stateOf(task, facts);
  // An entry booked before migration 0045 was filled with its tier's threshold then; none is null.
  const thresholdMicro = paid?.thresholdMicro ?? task.thresholdMicro;
  return {
    taskId: task.id,
    group: task.group,
    kind: task.kind,
    // spec: points are proof of future airdrops; the X follow cannot be verified, so it shows none.
    points: paid ? paid.points : task.kind === 'x' ? 0 : task.points,
    state,
    verification: verificationOf(task, social),
    link: task.link,
    appLink: task.appLink,
    threshold: isTrade && thresholdMicro !== null ? usdt(thresholdMicro) : null,
    progress: isTrade ? usdt(facts.volumeMicro) : null,
    accountId: network ? (facts.social.get(network)?.accountId ?? null) : null,
    // What claimTask refuses with 'claimFailedUidDisputed', said before the member clicks Claim.
    awaitsDispute: hasDisputedUid && isPaidOnUids(task) && state !== 'claimed',
  };
}

async function enabledTask(db: Executor, taskId: string): Promise<TaskDefinitionRow> {
  const task = await findTaskDefinition(db, taskId);
  if (!task?.enabled) throw new AppError(State.NotFound, 'notFound');
  return task;
}

/** A task list is ~3 KB as JSON (a dozen tasks); 50,000 members and 64 MiB at most per process. */
const TASK_DETAILS = answerKind<TaskDetail>('taskDetail', 50_000, {
  maxBytes: 64 * 1024 * 1024,
  sizeOf: (value) => 400 + value.groups.reduce((sum, group) => sum + group.tasks.length * 300, 0),
});

/**
 * /elex/exchange/getExchangeTaskDetail: every enabled task in its group, with the member's state. The
 * member's facts come in one statement (read-models/member-task-facts.ts), beside the definitions.
 * Kept in this process per member (issue 14) until the database says it changed: the member's live
 * bindings and every binding of their UIDs (0028, 0055-0057), trading records of their UIDs (0053/0055;
 * `rebate_uid_totals` moves only with them, or by kept:rebuild's '*'), disputes of their UIDs (0052/0055),
 * points entries (0051), the XME binding and social accounts, a payout to anyone for one of the member's
 * accounts, and any change of a task definition ('*') (migration 0058_member_notify_tasks). Filed under
 * the member's live UIDs and not kept while an import writes one (`keepCheckForMember`). Nothing in it
 * depends on the clock; the bots' configuration is in the key. Kept values are frozen.
 */
export function taskDetail(deps: AppDeps, userId: number): Promise<TaskDetail> {
  const { telegram, discord } = deps.config.social;
  return keptForMember(deps.memberAnswers, TASK_DETAILS, userId, () => readTaskDetail(deps, userId), {
    key: `${userId}:${telegram ? 't' : ''}${discord ? 'd' : ''}`,
    keepable: () => keepCheckForMember(deps.db, userId),
  });
}

async function readTaskDetail(deps: AppDeps, userId: number): Promise<TaskDetail> {
  const [definitions, found] = await Promise.all([
    selectTaskDefinitions(deps.db),
    selectMemberTaskFacts(deps.db, userId, TASK_REASON, tradeVolumeFromSql('b')),
  ]);
  const facts: MemberFacts = {
    uids: found.uidAccounts,
    xme: found.xmeUid === null ? null : accountKey.xme(found.xmeUid),
    social: new Map(found.social.map((row) => [row.network, row])),
    volumeMicro: found.volumeMicro,
    paidToOthers: new Set(found.paidToOthers.map((paid) => payoutKey(paid.taskId, paid.account))),
    claimed: new Set(found.claimed.map((entry) => entry.taskId)),
  };
  const paid = new Map(found.claimed.map((entry) => [entry.taskId, entry]));
  const enabled = definitions.filter((task) => task.enabled);
  return deepFreeze({
    groups: TASK_GROUPS.map((group) => ({
      group,
      tasks: enabled
        .filter((task) => task.group === group)
        .map((task) => toTask(task, facts, deps.config.social, found.hasDisputedUid, paid.get(task.id))),
    })),
    tradingVolume: usdt(facts.volumeMicro),
    points: found.points,
  });
}

/** The answer frozen through: a kept one is shared by every later caller. */
function deepFreeze(detail: TaskDetail): TaskDetail {
  for (const group of detail.groups) {
    for (const task of group.tasks) Object.freeze(task);
    Object.freeze(group.tasks);
    Object.freeze(group);
  }
  Object.freeze(detail.groups);
  return Object.freeze(detail);
}

/**
 * /elex/exchange/receiveScore: pays a task's points once. The state is checked and the points are
 * booked in one transaction, and the booking is idempotent by (member, 'task', task id): of racing
 * claims one pays, the others hear 'already claimed'. A task earned by an outside account (a social
 * id, the XME UID, an exchange UID) also records that account in `task_payouts`, whose key refuses a
 * second payout for it to anyone: 'this account has already earned these points'.
 */
export async function claimTask(
  deps: AppDeps,
  userId: number,
  taskId: string,
): Promise<ReceiveScoreResponse> {
  const now = deps.clock.now();
  const task = await deps.db.transaction(async (tx) => {
    const definition = await enabledTask(tx, taskId);
    const key = { userId, currency: 'points', reason: TASK_REASON, reference: definition.id } as const;
    if (await hasEntry(tx, key)) throw AppError.refused('claimFailedAlreadyClaimed');
    const network = networkOf(definition);
    // Locked: an id change waits for this claim (and then finds it paid), or this claim waits for the
    // change and checks the new id, so the id stored is always the one the claim was checked against.
    const social = network ? await findSocialAccount(tx, userId, network, { forUpdate: true }) : undefined;
    const bindings = isPaidOnUids(definition) ? await liveBindingsOf(tx, userId) : [];
    // A UID its owner disputes earns its holder nothing until support decides (found in review,
    // 2026-11-29): a squatter was paid the binding task and the trade tiers on the owner's volume, and
    // the owner could then never earn the binding task with that UID. The task list says so beforehand
    // (`awaitsDispute`).
    for (const binding of bindings) {
      if (await isUidFrozen(tx, binding.platId, binding.uid))
        throw AppError.refused('claimFailedUidDisputed');
    }
    // Locked before it is read: the member cannot swap the XME UID under this claim.
    const xmeUid = definition.kind === 'bindXme' ? await lockXmeUid(tx, userId, now) : null;
    const accounts = {
      uids: definition.kind === 'bindUid' ? bindings.map(accountKey.uid) : [],
      xme: xmeUid === null ? null : accountKey.xme(xmeUid),
      social: new Map(network && social ? [[network, social]] : []),
    };
    const facts = {
      ...accounts,
      volumeMicro: definition.kind === 'tradingVolume' ? await tradingVolumeOf(tx, bindings) : 0n,
      paidToOthers: await payoutsToOthers(tx, userId, candidateAccounts(accounts)),
    };
    if (!isDone(definition, facts)) {
      if (accountsFor(definition, facts).length > 0) throw AppError.refused('claimFailedAccountPaid');
      throw AppError.refused(
        definition.kind === 'tradingVolume' ? 'claimFailedNotAchieved' : 'claimFailedNotDone',
      );
    }
    if (definition.points <= 0) throw AppError.refused('claimFailedNoPoints');
    // The threshold is kept with the entry: an operator may change the tier later, and the member's
    // history must still say what was traded for these points (found in red-team review, 2026-11-29).
    const booked = await grantPoints(tx, {
      ...key,
      amount: definition.points,
      at: now,
      thresholdMicro: definition.kind === 'tradingVolume' ? definition.thresholdMicro : null,
    });
    if (!booked) throw AppError.refused('claimFailedAlreadyClaimed');
    const account = payoutAccountFor(definition, facts);
    if (account !== undefined) {
      // A racing claim of another member for the same account committed first: this one rolls back.
      const recorded = await insertPayout(tx, { taskId: definition.id, account, userId, paidAt: now });
      if (!recorded) throw AppError.refused('claimFailedAccountPaid');
    }
    return definition;
  });
  const { points } = await balances(deps.db, userId);
  return { taskId: task.id, pointsEarned: task.points, points, state: 'claimed' };
}

/** Where a membership check went wrong, for the log (never the token). */
export interface MembershipLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * /elex/exchange/fetchMetiaTaskStatus: asks the community's bot whether the member's account joined.
 * An `accountId` sent along is stored first (a changed id is unverified again). Without a configured
 * bot it answers `unavailable`: nothing is ever verified, so nothing is ever paid, without a bot.
 */
export async function checkTaskMembership(
  deps: AppDeps,
  userId: number,
  input: { taskId: string; accountId?: string | undefined },
  log?: MembershipLog,
): Promise<FetchTaskStatusResponse> {
  const task = await enabledTask(deps.db, input.taskId);
  const network = networkOf(task);
  if (!network) throw AppError.refused('taskNotVerifiable');
  const now = deps.clock.now();

  let account = await findSocialAccount(deps.db, userId, network);
  if (input.accountId !== undefined && input.accountId !== account?.accountId) {
    if (!SOCIAL_ACCOUNT_ID_PATTERNS[network].test(input.accountId)) {
      throw AppError.refused('socialAccountInvalid');
    }
    const accountId = input.accountId;
    account = await deps.db.transaction(async (tx) => {
      // The row locked as a claim locks it, so a claim running now commits before the check below
      // reads it (found in review, 2026-11-29: the claim paid for the old id and the new one was
      // stored). A member with no row yet has nothing a claim could be paid for.
      const current = await findSocialAccount(tx, userId, network, { forUpdate: true });
      if (current?.accountId === accountId) return current;
      // Once paid, the account stays: a new id would free the paid one for another member's claim.
      const claimed = { userId, currency: 'points', reason: TASK_REASON, reference: task.id } as const;
      if (await hasEntry(tx, claimed)) throw AppError.refused('socialAccountLocked');
      await saveSocialAccount(tx, { userId, network, accountId, at: now });
      return findSocialAccount(tx, userId, network);
    });
  }
  if (!account) throw AppError.refused('socialAccountRequired');

  const answer = async (status: MembershipStatus): Promise<FetchTaskStatusResponse> => {
    const facts = await memberFacts(deps.db, userId);
    return { taskId: task.id, status, state: stateOf(task, facts), accountId: account?.accountId ?? null };
  };
  if (account.verifiedAt) return answer('joined');
  const socialAccount = accountKey.social(network, account.accountId);
  const paidToOthers = await payoutsToOthers(deps.db, userId, [socialAccount]);
  if (
    paidToOthers.has(payoutKey(task.id, socialAccount)) ||
    (await isVerifiedForOther(deps.db, userId, network, account.accountId))
  ) {
    throw AppError.refused('socialAccountTaken');
  }
  const client = membershipClient(deps.config.social, network);
  if (!client) return answer('unavailable');

  const check = await client.isMember(account.accountId);
  switch (check.outcome) {
    case 'member':
      try {
        await markSocialAccountVerified(deps.db, { userId, network, accountId: account.accountId, at: now });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.refused('socialAccountTaken');
        throw error;
      }
      return answer('joined');
    case 'notMember':
      return answer('notJoined');
    case 'timeout':
      log?.warn({ network, taskId: task.id }, 'community bot did not answer in time');
      return answer('timeout');
    case 'error':
      log?.warn({ network, taskId: task.id, detail: check.detail }, 'community bot answered with an error');
      return answer('error');
  }
}

// --- for the operator console

/** Every task definition, disabled ones included, in display order. */
export function listTaskDefinitions(db: Executor): Promise<TaskDefinitionRow[]> {
  return selectTaskDefinitions(db);
}

/** One task, held until the transaction ends (the console's save checks its version under it). */
export function lockTaskDefinition(tx: Executor, taskId: string): Promise<TaskDefinitionRow | undefined> {
  return lockTaskDefinitionRow(tx, taskId);
}

export interface TaskDefinitionUpdate {
  points?: number;
  /** Trade tasks only: the cumulative volume in USDT, a decimal string ("10000", "2500.5"). */
  threshold?: string;
  link?: string | null;
  appLink?: string | null;
  sortOrder?: number;
  enabled?: boolean;
}

function isUrl(value: string, protocols: RegExp): boolean {
  try {
    return protocols.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Changes a task's points, threshold, links, order or whether it shows. A task already claimed keeps
 * what it paid (the points ledger is append-only); new claims pay the new value.
 */
export async function updateTaskDefinition(
  deps: AppDeps,
  taskId: string,
  update: TaskDefinitionUpdate,
): Promise<TaskDefinitionRow> {
  const task = await findTaskDefinition(deps.db, taskId);
  if (!task) throw new AppError(State.NotFound, 'notFound');
  const patch: TaskDefinitionPatch = {};
  if (update.points !== undefined) {
    if (!Number.isInteger(update.points) || update.points < 0 || update.points > 1_000_000) {
      throw new ValidationError('points', 'invalidValue');
    }
    patch.points = update.points;
  }
  if (update.threshold !== undefined) {
    const match = DECIMAL_PATTERN.exec(update.threshold);
    const micro =
      task.kind === 'tradingVolume' && match && (match[2]?.length ?? 0) <= DECIMALS.usdt
        ? toScaled(update.threshold, DECIMALS.usdt)
        : 0n;
    if (micro <= 0n) throw new ValidationError('threshold', 'invalidValue');
    patch.thresholdMicro = micro;
  }
  if (update.link !== undefined) {
    if (update.link !== null && !isUrl(update.link, /^https:$/))
      throw new ValidationError('link', 'invalidValue');
    patch.link = update.link;
  }
  if (update.appLink !== undefined) {
    // https or a documented app (tg:, discord:), read by the URL parser as a browser reads it: a
    // `java\tscript:` passed the old deny list and only the CSP stopped it (issue 13).
    if (update.appLink !== null && !isAllowedAppLink(update.appLink)) {
      throw new ValidationError('appLink', 'invalidValue');
    }
    patch.appLink = update.appLink;
  }
  if (update.sortOrder !== undefined) {
    if (!Number.isInteger(update.sortOrder)) throw new ValidationError('sortOrder', 'invalidValue');
    patch.sortOrder = update.sortOrder;
  }
  if (update.enabled !== undefined) patch.enabled = update.enabled;
  const row = await updateTaskDefinitionRow(deps.db, taskId, patch, deps.clock.now());
  if (!row) throw new AppError(State.NotFound, 'notFound');
  return row;
}

/**
 * Account deletion (auth): erases the member's Telegram and Discord ids, in the deletion's
 * transaction. The points they earned stay booked, anonymous; answers how many ids there were.
 */
export function eraseSocialAccounts(tx: Executor, userId: number): Promise<number> {
  return deleteSocialAccountsOfUser(tx, userId);
}
