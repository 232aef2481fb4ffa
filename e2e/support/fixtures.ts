import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test as nodeTest, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createContext, launchBrowser, type NewPageOptions } from './browser.js';
import { type PageErrorWatch, watchPageErrors } from './page-errors.js';
import { type RunningServer, startServer } from './server.js';
import { type SmtpCapture, startSmtpCapture } from './smtp-capture.js';

/**
 * One server and one browser per spec file (each file runs in its own process under `node --test`).
 * When E2E_BASE_URL is set (e2e/run.ts sets it after starting one server for the whole run, or a
 * developer points it at a running `npm start`) the files share that server instead.
 */
interface Suite {
  baseUrl: string;
  browser: Browser;
  server: RunningServer | undefined;
  smtp: SmtpCapture | undefined;
}

let suite: Promise<Suite> | undefined;

async function startSuite(): Promise<Suite> {
  const external = process.env.E2E_BASE_URL?.replace(/\/$/, '');
  // A spec run on its own gets its own mail capture: the production server refuses to start without
  // SMTP_URL, and the specs read codes from E2E_MAIL_DIR.
  const smtp = external ? undefined : await startSmtpCapture();
  if (smtp) process.env.E2E_MAIL_DIR = smtp.dir;
  let server: RunningServer | undefined;
  try {
    server = smtp ? await startServer({ smtpUrl: smtp.url }) : undefined;
    const browser = await launchBrowser();
    return { baseUrl: external ?? (server as RunningServer).url, browser, server, smtp };
  } catch (error) {
    await server?.stop();
    await smtp?.stop();
    throw error;
  }
}

function getSuite(): Promise<Suite> {
  suite ??= startSuite();
  return suite;
}

after(async () => {
  if (!suite) return;
  const started = await suite.catch(() => undefined);
  await started?.browser.close();
  await started?.server?.stop();
  await started?.smtp?.stop();
});

interface E2EPageOptions extends Omit<NewPageOptions, 'baseURL'> {
  /** Console or page errors this test provokes on purpose. */
  ignoreErrors?: RegExp[];
}

export interface E2EFixtures {
  /** The server's origin, e.g. http://127.0.0.1:41234 (pages resolve relative URLs against it). */
  baseUrl: string;
  /** A page in a fresh browser context; any console error or uncaught error on it fails the test. */
  newPage(options?: E2EPageOptions): Promise<Page>;
  t: TestContext;
}

const failureShotsDir = path.join(os.tmpdir(), 'elex-e2e-failures');

/** `node:test`'s `test` with the e2e fixtures, a per-test timeout and closing of every page it opened. */
export function test(
  name: string,
  body: (fixtures: E2EFixtures) => Promise<void>,
  options: { timeout?: number } = {},
) {
  nodeTest(name, { timeout: options.timeout ?? 60_000 }, async (t) => {
    const { baseUrl, browser } = await getSuite();
    const opened: { context: BrowserContext; page: Page; watch: PageErrorWatch }[] = [];

    const fixtures: E2EFixtures = {
      baseUrl,
      t,
      async newPage(pageOptions = {}) {
        const { ignoreErrors, ...rest } = pageOptions;
        const context = await createContext(browser, { ...rest, baseURL: baseUrl });
        context.setDefaultTimeout(10_000);
        context.setDefaultNavigationTimeout(20_000);
        const page = await context.newPage();
        opened.push({ context, page, watch: watchPageErrors(page, ignoreErrors) });
        return page;
      },
    };

    let failure: unknown;
    try {
      await body(fixtures);
    } catch (error) {
      failure = error;
    }
    const pageErrors = opened.flatMap(({ watch }) => watch.errors);
    if (failure !== undefined) await saveFailureScreenshots(t, name, opened);
    await Promise.all(opened.map(({ context }) => context.close().catch(() => undefined)));

    if (failure !== undefined) {
      for (const line of pageErrors) t.diagnostic(line);
      throw failure;
    }
    for (const { watch } of opened) watch.assertNone();
  });
}

async function saveFailureScreenshots(t: TestContext, name: string, opened: { page: Page }[]) {
  const slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  fs.mkdirSync(failureShotsDir, { recursive: true });
  for (const [index, { page }] of opened.entries()) {
    if (page.isClosed()) continue;
    const file = path.join(failureShotsDir, `${slug}-${index + 1}.png`);
    try {
      await page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
      t.diagnostic(`screenshot of ${page.url()}: ${file}`);
    } catch {
      // the page may have crashed; the error itself says more
    }
  }
}
