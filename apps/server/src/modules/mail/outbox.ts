import { isLocale, type Locale, VERIFICATION_CODE } from '@elex/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { MailOutboxRow } from './mail.tables.js';
import {
  claimDueMails,
  insertOutboxMail,
  markMailFailed,
  markMailRetry,
  markMailSent,
  renewMailLease,
} from './outbox.repository.js';
import { openPayload, sealPayload } from './payload-cipher.js';
import { isMailTemplate, type MailParams, type MailTemplate, renderMail } from './templates.js';
import { transportFor } from './transport.js';
import { postJson, WEBHOOK_TEMPLATE } from './webhook.js';

/** Retries with exponential backoff: 30 s, 1 min, 2 min ... capped at 1 h, then the mail is given up. */
export const MAIL_RETRY = {
  maxAttempts: 8,
  baseDelayMs: 30_000,
  maxDelayMs: 60 * 60_000,
  /** How long a claimed mail stays reserved for one worker. */
  leaseMs: 2 * 60_000,
} as const;

export function retryDelayMs(attempts: number): number {
  return Math.min(MAIL_RETRY.baseDelayMs * 2 ** Math.max(0, attempts - 1), MAIL_RETRY.maxDelayMs);
}

export interface MailRequest<T extends MailTemplate> {
  template: T;
  locale: Locale;
  to: string;
  params: MailParams[T];
  /** The member the mail concerns, when there is one. */
  userId?: number | null;
}

const associatedData = (template: string, locale: string) => `${template}|${locale}`;

/**
 * Queues a mail in the caller's transaction (architecture: a mail that must not be lost is written
 * with the change it reports, and only sent once that commits).
 */
export async function enqueueMail<T extends MailTemplate>(
  tx: Executor,
  deps: Pick<AppDeps, 'config' | 'clock'>,
  mail: MailRequest<T>,
): Promise<number> {
  const now = deps.clock.now();
  return insertOutboxMail(tx, {
    template: mail.template,
    locale: mail.locale,
    payload: sealPayload(deps.config.appSecret, associatedData(mail.template, mail.locale), {
      to: mail.to,
      params: mail.params,
    }),
    userId: mail.userId ?? null,
    nextAttemptAt: now,
    createdAt: now,
  });
}

/**
 * Queues a JSON POST to `url` in the caller's transaction: the outbox delivers it like a mail, with
 * the same retries, lease and encryption (the body may name members), and never in the request.
 */
export async function enqueueWebhook(
  tx: Executor,
  deps: Pick<AppDeps, 'config' | 'clock'>,
  url: string,
  body: unknown,
): Promise<number> {
  const now = deps.clock.now();
  return insertOutboxMail(tx, {
    template: WEBHOOK_TEMPLATE,
    locale: 'en',
    payload: sealPayload(deps.config.appSecret, associatedData(WEBHOOK_TEMPLATE, 'en'), {
      to: url,
      params: body,
    }),
    userId: null,
    nextAttemptAt: now,
    createdAt: now,
  });
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
}

const silentLog: FastifyBaseLogger = {
  level: 'silent',
  fatal: () => {},
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
  silent: () => {},
  child: () => silentLog,
} as unknown as FastifyBaseLogger;

/**
 * Sends every due mail once and returns; the worker calls it on a timer, tests call it directly.
 * A failure is recorded on the row (attempts, last error, next attempt) and never thrown.
 */
export async function drainOutbox(
  deps: AppDeps,
  options: { log?: FastifyBaseLogger; batchSize?: number } = {},
): Promise<DrainResult> {
  const log = options.log ?? silentLog;
  const batchSize = options.batchSize ?? 20;
  const result: DrainResult = { sent: 0, retried: 0, failed: 0 };
  const seen = new Set<number>();
  for (;;) {
    const now = deps.clock.now();
    const claimed = await claimDueMails(
      deps.db,
      now,
      new Date(now.getTime() + MAIL_RETRY.leaseMs),
      batchSize,
    );
    const fresh = claimed.filter((row) => !seen.has(row.id));
    if (fresh.length === 0) break;
    for (const row of fresh) {
      seen.add(row.id);
      // The batch's lease may have run out while earlier mails were sent: another drain may own it now.
      const leaseUntil = new Date(deps.clock.now().getTime() + MAIL_RETRY.leaseMs);
      if (!(await renewMailLease(deps.db, row, leaseUntil))) continue;
      const outcome = await deliver(deps, row, log);
      result[outcome] += 1;
    }
  }
  return result;
}

async function deliver(
  deps: AppDeps,
  row: MailOutboxRow,
  log: FastifyBaseLogger,
): Promise<keyof DrainResult> {
  const now = deps.clock.now();
  const webhook = row.template === WEBHOOK_TEMPLATE;
  if (!row.payload || !(webhook || isMailTemplate(row.template)) || !isLocale(row.locale)) {
    await markMailFailed(deps.db, row.id, 'unreadable outbox row', true);
    log.error({ mailId: row.id, template: row.template }, 'outbox mail cannot be read');
    return 'failed';
  }
  // A code mail that could not leave within the code's lifetime would only deliver a dead code.
  const codeLifetimeMs = VERIFICATION_CODE.validMinutes * 60_000;
  if (row.template === 'verificationCode' && now.getTime() - row.createdAt.getTime() > codeLifetimeMs) {
    await markMailFailed(deps.db, row.id, row.lastError ?? 'code expired before it could be sent', true);
    log.warn({ mailId: row.id, attempts: row.attempts }, 'code mail dropped: the code expired unsent');
    return 'failed';
  }
  try {
    const { to, params } = openPayload(
      deps.config.appSecret,
      associatedData(row.template, row.locale),
      row.payload,
    ) as { to: string; params: MailParams[MailTemplate] };
    if (webhook) {
      await postJson(to, params);
    } else {
      const template = row.template as MailTemplate;
      const rendered = renderMail(template, row.locale, params, deps.config.appUrl);
      await transportFor(deps, log).send({ to, template, ...rendered });
    }
    await markMailSent(deps.db, row.id, deps.clock.now());
    log.info({ mailId: row.id, template: row.template, attempts: row.attempts }, 'mail sent');
    return 'sent';
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (row.attempts >= MAIL_RETRY.maxAttempts) {
      await markMailFailed(deps.db, row.id, message, false);
      log.error(
        { mailId: row.id, template: row.template, attempts: row.attempts, err: message },
        'mail given up after retries',
      );
      return 'failed';
    }
    const next = new Date(deps.clock.now().getTime() + retryDelayMs(row.attempts));
    await markMailRetry(deps.db, row.id, message, next);
    log.warn(
      { mailId: row.id, template: row.template, attempts: row.attempts, nextAttemptAt: next, err: message },
      'mail send failed',
    );
    return 'retried';
  }
}

// Housekeeping prunes sent mails through the outbox (docs/architecture.md, "Boundaries").
export { deleteMailsSentBefore, dropPendingMailsOf } from './outbox.repository.js';
