import assert from 'node:assert/strict';
import { type Locale, locales, message, openRoute, readMessages } from '../support/app.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';

const viewports: Viewport[] = ['desktop', 'mobile'];
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

for (const locale of locales as Locale[]) {
  for (const viewport of viewports) {
    test(`the calculator goes from the four steps to the result (${locale}, ${viewport})`, async ({
      newPage,
    }) => {
      const strings = readMessages(locale);
      const next = message(strings, 'calculator.next');
      const page = await newPage({ viewport, localStorage: { locale } });
      await openRoute(page, '/calculator');

      // 1 exchange
      await page.getByRole('radio', { name: 'Bybit' }).check();
      await page.getByRole('button', { name: next }).click();
      // 2 leverage
      await page.getByRole('spinbutton', { name: message(strings, 'calculator.leverageLabel') }).fill('20');
      await page.getByRole('button', { name: next }).click();
      // 3 seed
      await page.getByRole('textbox', { name: message(strings, 'calculator.seedLabel') }).fill('2000');
      await page.getByRole('button', { name: next }).click();
      // 4 frequency
      await page.getByRole('radio', { name: message(strings, 'calculator.frequencies.twoToFive') }).check();
      await page.getByRole('button', { name: message(strings, 'calculator.calculate') }).click();

      // The result: 30-day and 6-month estimates from Bybit's seeded rates (docs/calculator.md).
      await page
        .getByRole('heading', { name: fill(message(strings, 'calculator.resultTitle'), { name: 'Bybit' }) })
        .waitFor({ state: 'visible' });
      await page
        .getByText(fill(message(strings, 'exchanges.usdtAmount'), { amount: '630.00' }))
        .first()
        .waitFor();
      await page
        .getByText(fill(message(strings, 'exchanges.usdtAmount'), { amount: '3,780.00' }))
        .first()
        .waitFor();
      await page.getByRole('heading', { name: message(strings, 'calculator.compareTitle') }).waitFor();
      // The chart drew one bar per partner.
      await page.locator('.comparison-chart .recharts-bar-rectangle').first().waitFor();
      assert.equal(await page.locator('.comparison-chart .recharts-bar-rectangle').count(), 10);
    });
  }
}

test('the calculator refuses leverage above 125 with the shared message', async ({ newPage }) => {
  const strings = readMessages('en');
  const page = await newPage({ viewport: 'desktop' });
  await openRoute(page, '/calculator');
  await page.getByRole('button', { name: message(strings, 'calculator.next') }).click();
  await page.getByRole('alert').getByText('Please choose an exchange').waitFor();
  await page.getByRole('radio', { name: 'OKX' }).check();
  await page.getByRole('button', { name: message(strings, 'calculator.next') }).click();
  await page.getByRole('spinbutton').fill('200');
  await page.getByRole('button', { name: message(strings, 'calculator.next') }).click();
  await page.getByRole('alert').getByText('Leverage must be between 1 and 125').waitFor();
});
