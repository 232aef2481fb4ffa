/**
 * Runs every spec under e2e/specs with Node's test runner against one production server started
 * here: each spec file is its own process, and a fresh PGlite data directory takes several seconds to
 * initialise (about 11 s from spawn to /healthz on a 2-core machine), so one server serves them all.
 * The specs that need a server of their own start it from a copy of a directory made once here.
 * Arguments are passed to `node --test` (e.g. `--test-name-pattern=404` or a spec path).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { prepareDataTemplate, type RunningServer, startServer } from './support/server.js';
import { startSmtpCapture } from './support/smtp-capture.js';

const specsDir = path.join(import.meta.dirname, 'specs');
const args = process.argv.slice(2);
const hasFiles = args.some((arg) => arg.endsWith('.ts'));
const files = hasFiles
  ? []
  : fs
      .readdirSync(specsDir)
      .filter((file) => file.endsWith('.spec.ts'))
      .sort()
      .map((file) => path.join(specsDir, file));

// A real SMTP server receives the app's mails; specs read the codes from its mailbox directory.
const smtp = await startSmtpCapture();
// A first start on a fresh directory, kept as the template every later server copies (support/server.ts).
const template = await prepareDataTemplate(smtp.url);
process.env.E2E_DATA_TEMPLATE = template.dir;
let server: RunningServer | undefined;
if (!process.env.E2E_BASE_URL) {
  server = await startServer({ smtpUrl: smtp.url });
  process.stdout.write(`# e2e: production server on ${server.url}, mail captured at ${smtp.url}\n`);
}
const env = { ...process.env, E2E_BASE_URL: process.env.E2E_BASE_URL ?? server?.url, E2E_MAIL_DIR: smtp.dir };

// Two spec files at a time: each spends most of its time waiting on Chromium and the server.
const concurrency = args.some((arg) => arg.startsWith('--test-concurrency')) ? [] : ['--test-concurrency=2'];
const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...concurrency, ...args, ...files], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => child.kill(signal));
}
const code = await new Promise<number>((resolve) => {
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
});
await server?.stop();
template.remove();
await smtp.stop();
process.exit(code);
