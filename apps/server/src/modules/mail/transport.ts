import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { AppDeps } from '../../deps.js';

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The outbox template, for logs; never the content. */
  template: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'dev';
  send(mail: OutgoingMail): Promise<void>;
}

export interface StoredMail {
  id: number;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  template: string;
  at: string;
}

/**
 * Without SMTP_URL, mail lands here: the last 50, newest first, shown at GET /dev/mailbox. Tests read
 * codes from it after draining the outbox, because the database holds no code in clear.
 */
export class DevMailbox {
  static readonly capacity = 50;
  private items: StoredMail[] = [];
  private nextId = 1;

  add(mail: Omit<StoredMail, 'id'>): StoredMail {
    const stored = { id: this.nextId++, ...mail };
    this.items.unshift(stored);
    this.items.length = Math.min(this.items.length, DevMailbox.capacity);
    return stored;
  }

  /** Newest first. */
  list(): readonly StoredMail[] {
    return this.items;
  }

  clear() {
    this.items = [];
  }
}

const mailboxes = new WeakMap<AppDeps, DevMailbox>();

/** The development mailbox of one running app (one per app, so parallel test apps stay apart). */
export function devMailbox(deps: AppDeps): DevMailbox {
  let mailbox = mailboxes.get(deps);
  if (!mailbox) {
    mailbox = new DevMailbox();
    mailboxes.set(deps, mailbox);
  }
  return mailbox;
}

function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer comes with the first mail, not with the start (forty modules the server may never use).
  let transporter: Promise<Transporter> | undefined;
  return {
    kind: 'smtp',
    async send(mail) {
      transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url,
          // A dead server must fail a drain in seconds, not hold it for nodemailer's 2-minute default.
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        }),
      );
      await (await transporter).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
  };
}

function devTransport(deps: AppDeps, log: FastifyBaseLogger): MailTransport {
  const mailbox = devMailbox(deps);
  return {
    kind: 'dev',
    async send(mail) {
      const stored = mailbox.add({ ...mail, from: deps.config.mailFrom, at: deps.clock.now().toISOString() });
      // accounts issue: log the fact at info; the content (which may hold a code) only at debug.
      log.info(
        { mailId: stored.id, template: mail.template },
        'mail kept in the development mailbox (no SMTP_URL)',
      );
      log.debug(
        { mailId: stored.id, to: mail.to, subject: mail.subject, text: mail.text },
        'development mail',
      );
    },
  };
}

const transports = new WeakMap<AppDeps, { url: string | undefined; transport: MailTransport }>();

/** SMTP at config.smtpUrl when set, else the development mailbox. */
export function transportFor(deps: AppDeps, log: FastifyBaseLogger): MailTransport {
  const cached = transports.get(deps);
  if (cached && cached.url === deps.config.smtpUrl) return cached.transport;
  const transport = deps.config.smtpUrl
    ? smtpTransport(deps.config.smtpUrl, deps.config.mailFrom)
    : devTransport(deps, log);
  transports.set(deps, { url: deps.config.smtpUrl, transport });
  return transport;
}
