import {
  type AlertKind,
  type AlertPreferences,
  type SaveAlertPreferencesRequest,
  State,
  toLocale,
} from '@elex/contract';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../admin/audit.service.js';
import type { ActionContext } from '../admin/catalog.service.js';
import { checkAllInvariants, type InvariantProblem } from '../cashback/cashback.check.js';
import { enqueueMail, enqueueWebhook } from '../mail/outbox.js';
import { runErrorText } from '../sync/run-error.js';
import type { PeriodicTask } from '../sync/sync.job.js';
import { type AlertMailParams, type AlertMailTemplate, renderAlertMail } from './alert-mails.js';
import {
  claimAlertKey,
  selectAlertRecipients,
  selectFailureStreak,
  selectPreferences,
  selectSummaryFigures,
  upsertPreferences,
} from './alerts.repository.js';

/**
 * Operators' alerts (docs/operations.md, "Alerts"): a mail to every operator who has the alert on,
 * in their language, and a JSON POST to ALERT_WEBHOOK_URL when set. Both are outbox rows written in
 * the caller's transaction: they leave after it commits, are retried, and never hold up the request
 * that caused them.
 */
export type AlertDeps = Pick<AppDeps, 'db' | 'config' | 'clock'>;

const TEMPLATES = {
  withdrawalRequested: 'alertWithdrawalRequested',
  syncFailing: 'alertSyncFailing',
  ledgerBroken: 'alertLedgerBroken',
  dailySummary: 'alertDailySummary',
  payoutWalletShort: 'alertPayoutWalletShort',
  payoutStuck: 'alertPayoutStuck',
  clockSkew: 'alertClockSkew',
} as const satisfies Record<AlertKind, AlertMailTemplate>;
type TemplateOf<K extends AlertKind> = (typeof TEMPLATES)[K];

/** Queues one alert; answers how many operators it mails. */
export async function sendAlert<K extends AlertKind>(
  tx: Executor,
  deps: AlertDeps,
  kind: K,
  params: AlertMailParams[TemplateOf<K>],
): Promise<number> {
  const template = TEMPLATES[kind] as AlertMailTemplate;
  const recipients = await selectAlertRecipients(tx, kind);
  for (const recipient of recipients) {
    await enqueueMail(tx, deps, {
      template,
      locale: toLocale(recipient.locale),
      to: recipient.email,
      params,
      userId: recipient.userId,
    });
  }
  const url = deps.config.alerts.webhookUrl;
  if (url) {
    const { subject } = renderAlertMail(template, 'en', params, deps.config.appUrl, (iso) => iso);
    await enqueueWebhook(tx, deps, url, {
      alert: kind,
      at: deps.clock.now().toISOString(),
      text: subject,
      details: params,
    });
  }
  return recipients.length;
}

/**
 * Queues the alert unless one with this key went already (any instance, any restart): answers whether
 * this call sent it. The key says the occasion, e.g. 'payoutWallet:usdt:<address>:<day>'.
 */
export async function sendAlertOnce<K extends AlertKind>(
  deps: AlertDeps,
  key: string,
  kind: K,
  params: AlertMailParams[TemplateOf<K>],
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    if (!(await claimAlertKey(tx, key, deps.clock.now()))) return false;
    await sendAlert(tx, deps, kind, params);
    return true;
  });
}

/** After each sync run: the run that makes N failures in a row alerts; later failures stay quiet. */
export async function alertAfterSyncRun(
  deps: AlertDeps,
  run: { platId: number; exchange: string; status: string },
): Promise<boolean> {
  if (run.status !== 'failed') return false;
  const streak = await selectFailureStreak(deps.db, run.platId);
  if (streak.failures !== deps.config.alerts.syncFailures) return false;
  await deps.db.transaction((tx) =>
    sendAlert(tx, deps, 'syncFailing', {
      exchange: run.exchange,
      platId: run.platId,
      failures: streak.failures,
      since: (streak.since ?? deps.clock.now()).toISOString(),
      error: (runErrorText(streak.error, 'en') ?? 'unknown error').slice(0, 500),
    }),
  );
  return true;
}

export async function alertLedgerBroken(
  deps: AlertDeps,
  source: 'daily' | 'cli',
  problems: readonly InvariantProblem[],
): Promise<void> {
  await deps.db.transaction((tx) =>
    sendAlert(tx, deps, 'ledgerBroken', {
      source,
      at: deps.clock.now().toISOString(),
      problems: problems.map((problem) => ({ ...problem })),
    }),
  );
}

const DAY_MS = 24 * 60 * 60_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export interface DailyAlertsResult {
  ledgerProblems: number;
  /** The day summarised, or null when this day's summary had already gone. */
  summaryDay: string | null;
}

/**
 * The daily work: the ledger check (broken: alert, once a day), and yesterday's summary (once,
 * however many instances or restarts run this).
 */
export async function runDailyAlerts(deps: AlertDeps): Promise<DailyAlertsResult> {
  const now = deps.clock.now();
  const today = new Date(`${dayOf(now)}T00:00:00Z`);
  const yesterday = new Date(today.getTime() - DAY_MS);
  const problems = await checkAllInvariants(deps.db);
  if (problems.length > 0) {
    await deps.db.transaction(async (tx) => {
      if (!(await claimAlertKey(tx, `ledger:${dayOf(today)}`, now))) return;
      await sendAlert(tx, deps, 'ledgerBroken', { source: 'daily', at: now.toISOString(), problems });
    });
  }
  const summaryDay = await deps.db.transaction(async (tx) => {
    if (!(await claimAlertKey(tx, `summary:${dayOf(yesterday)}`, now))) return null;
    const figures = await selectSummaryFigures(tx, yesterday, today);
    await sendAlert(tx, deps, 'dailySummary', {
      day: dayOf(yesterday),
      newMembers: figures.newMembers,
      withdrawalsRequested: figures.requested,
      withdrawalsPaid: figures.paid,
      commissionImported: figures.commission,
      pendingWithdrawals: figures.pending,
      syncs: figures.syncs,
    });
    return dayOf(yesterday);
  });
  return { ledgerProblems: problems.length, summaryDay };
}

export interface AlertsLog {
  info(details: object, message: string): void;
}

/** The daily alerts as the background runner's task (sync.job.ts), beside housekeeping. */
export function dailyAlertsTask(deps: AlertDeps, log: AlertsLog): PeriodicTask {
  return {
    name: 'daily-alerts',
    everyMinutes: 24 * 60,
    async run() {
      const result = await runDailyAlerts(deps);
      log.info({ ...result }, 'daily alerts done');
      return result;
    },
  };
}

export function getAlertPreferences(deps: Pick<AppDeps, 'db'>, userId: number): Promise<AlertPreferences> {
  return selectPreferences(deps.db, userId);
}

/** An operator's own switches; the change is audited. */
export async function saveAlertPreferences(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  context: ActionContext,
  change: SaveAlertPreferencesRequest,
): Promise<AlertPreferences> {
  const userId = context.actor.userId;
  if (userId === null) throw new AppError(State.Forbidden, 'forbidden');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const before = await selectPreferences(tx, userId);
    const after: AlertPreferences = {
      withdrawalRequested: change.withdrawalRequested ?? before.withdrawalRequested,
      syncFailing: change.syncFailing ?? before.syncFailing,
      ledgerBroken: change.ledgerBroken ?? before.ledgerBroken,
      clockSkew: change.clockSkew ?? before.clockSkew,
      dailySummary: change.dailySummary ?? before.dailySummary,
      payoutWalletShort: change.payoutWalletShort ?? before.payoutWalletShort,
      payoutStuck: change.payoutStuck ?? before.payoutStuck,
    };
    await upsertPreferences(tx, userId, after, now);
    await recordAudit(tx, {
      actor: context.actor,
      action: 'alerts.update',
      target: `user:${userId}`,
      before,
      after,
      at: now,
      requestId: context.requestId,
    });
    return after;
  });
}
