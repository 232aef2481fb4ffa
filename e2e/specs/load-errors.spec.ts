import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { type Locale, message, readMessages } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { registerOverApi, uniqueEmail } from '../support/members.js';

/**
 * A member page whose data call fails says so and offers to load it again, instead of a skeleton that
 * never changes (found in review): the records, the withdrawal page, a UID's page and the home. The
 * server is down for these calls only; the retry after it is back shows the page.
 */
const FAILING = /\/elex\/(user\/(seeRebateData|withdrawable|myInfo)|exchange\/depositRecord)$/;

async function failDataCalls(page: Page) {
  await page.route(FAILING, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ state: 5000, message: 'Error', content: null }),
    }),
  );
}

for (const [locale, viewport, route] of [
  ['ko', 'mobile', '/mypage/records'],
  ['zh', 'desktop', '/withdrawal'],
  ['en', 'desktop', '/'],
] as const satisfies ReadonlyArray<readonly [Locale, 'mobile' | 'desktop', string]>) {
  test(`${route} in ${locale} (${viewport}) says its data could not be loaded, and loads it on retry`, async ({
    baseUrl,
    newPage,
  }) => {
    const messages = readMessages(locale);
    const token = await registerOverApi(baseUrl, uniqueEmail('load-error'));
    const page = await newPage({
      viewport,
      localStorage: { locale, token },
      ignoreErrors: [/Failed to load resource/, /status of 500/],
    });
    await failDataCalls(page);
    await page.goto(route);
    const retry = page.getByRole('button', { name: message(messages, 'common.retry') }).first();
    await retry.waitFor({ state: 'visible' });
    await page
      .getByRole('alert')
      .filter({ hasText: message(messages, 'common.loadFailed') })
      .first()
      .waitFor({ state: 'visible' });
    await expectNoSeriousA11yViolations(page, `${route} with its data call failing`);

    // Back: each retry loads its part, and no error is left on the page. A part may also reload by
    // itself meanwhile (its button then leaves before the click): that is the same outcome.
    await page.unroute(FAILING);
    const retries = page.getByRole('button', { name: message(messages, 'common.retry') });
    while ((await retries.count()) > 0) {
      await retries
        .first()
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await page.waitForLoadState('networkidle');
    }
    await page.getByText(message(messages, 'common.loadFailed')).waitFor({ state: 'detached' });
  });
}
