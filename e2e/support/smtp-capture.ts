import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for the suite: the app sends through SMTP_URL like in production, and every
 * message received is written as JSON into a directory the spec processes read (each spec file runs
 * in its own process, so the mailbox is shared through files).
 */
export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

export interface SmtpCapture {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-mail-'));
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: CapturedMail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: Date.now(),
          };
          counter += 1;
          const file = path.join(dir, `${Date.now()}-${String(counter).padStart(5, '0')}.json`);
          fs.writeFileSync(`${file}.tmp`, JSON.stringify(mail));
          fs.renameSync(`${file}.tmp`, file);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      if (address && typeof address === 'object') resolve(address.port);
      else reject(new Error('SMTP capture has no port'));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    dir,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Mails received for an address so far, oldest first. */
export function mailsTo(address: string, dir = process.env.E2E_MAIL_DIR): CapturedMail[] {
  if (!dir) throw new Error('E2E_MAIL_DIR is not set: run the suite through e2e/run.ts');
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CapturedMail)
    .filter((mail) => mail.to.includes(address.toLowerCase()));
}

/**
 * Waits for a new mail to `address` carrying a 6-digit code and returns the newest such code. Notice
 * mails (a password change, a deletion) that arrive in between carry no code and are passed over.
 */
export async function waitForCode(
  address: string,
  after: number,
  timeoutMs = 20_000,
  dir = process.env.E2E_MAIL_DIR,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const code = mailsTo(address, dir)
      .filter((candidate) => candidate.receivedAt >= after)
      .map((candidate) => candidate.subject.match(/\b(\d{6})$/)?.[1])
      .filter((candidate) => candidate !== undefined)
      .at(-1);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no code mail reached ${address} within ${timeoutMs} ms`);
}
