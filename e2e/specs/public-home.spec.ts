import assert from 'node:assert/strict';
import { MESSAGES } from '@elex/contract';
import { type Locale, locales, message, openRoute, readMessages, waitForPath } from '../support/app.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';

const viewports: Viewport[] = ['desktop', 'mobile'];
const TABS = ['overall', 'recommend', 'racing', 'mostCashback', 'limitPrice', 'marketPrice'];

for (const locale of locales as Locale[]) {
  for (const viewport of viewports) {
    test(`home shows the ranking and a row leads to its exchange (${locale}, ${viewport})`, async ({
      newPage,
    }) => {
      const strings = readMessages(locale);
      const page = await newPage({ viewport, localStorage: { locale } });
      await openRoute(page, '/');

      // spec section 4: the six tabs, in order, overall selected.
      const tablist = page.getByRole('tablist', { name: message(strings, 'homePublic.rankingTabs') });
      await tablist.waitFor({ state: 'visible' });
      const tabNames = await tablist.getByRole('tab').allInnerTexts();
      assert.deepEqual(
        tabNames.map((name) => name.trim()),
        TABS.map((key) => message(strings, `homePublic.tabs.${key}`)),
      );

      // The first row of the overall tab (highest score) leads to its detail page.
      const panel = page.getByRole('tabpanel');
      const firstLink = panel.getByRole('link').first();
      const name = viewport === 'desktop' ? (await firstLink.innerText()).trim() : '';
      const href = await firstLink.getAttribute('href');
      assert.match(href ?? '', /^\/exchangeDetail\?id=\d+$/);
      await firstLink.click();
      const url = await waitForPath(page, '/exchangeDetail');
      assert.equal(`${url.pathname}${url.search}`, href);
      // The detail page is titled with the exchange's name and shows its VIP table.
      await page.getByRole('heading', { level: 1, name: new RegExp(name) }).waitFor({ state: 'visible' });
      await page
        .getByRole('heading', { name: message(strings, 'exchanges.detail.vipTitle') })
        .waitFor({ state: 'visible' });
    });
  }
}

test('a ranking tab reorders the rows (most cashback: highest cash rate first)', async ({ newPage }) => {
  const strings = readMessages('en');
  const page = await newPage({ viewport: 'desktop' });
  await openRoute(page, '/');
  await page.getByRole('tab', { name: message(strings, 'homePublic.tabs.mostCashback') }).click();
  const rates = await page.getByRole('tabpanel').locator('tbody tr td:nth-child(4)').allInnerTexts();
  const numbers = rates.map((rate) => Number.parseFloat(rate));
  assert.equal(numbers.length, 10);
  assert.deepEqual(
    numbers,
    [...numbers].sort((a, b) => b - a),
  );
});

test('the UID search goes to /exchangeNo with uid and platId and explains eligibility', async ({
  newPage,
}) => {
  const strings = readMessages('en');
  const page = await newPage({ viewport: 'desktop' });
  await openRoute(page, '/');
  const search = page.getByRole('search', { name: message(strings, 'homePublic.searchTitle') });
  await search.getByRole('combobox').selectOption({ label: 'Bybit' });
  await search.getByRole('textbox').fill('40512345');
  await search.getByRole('button', { name: message(strings, 'homePublic.searchSubmit') }).click();
  const url = await waitForPath(page, '/exchangeNo');
  assert.equal(url.searchParams.get('uid'), '40512345');
  assert.equal(url.searchParams.get('platId'), '3');
  // This UID is in no exchange's referral roster (and no exchange API is configured): not eligible.
  await page.getByText(MESSAGES.en.uidNotReferred, { exact: true }).waitFor({ state: 'visible' });
  await page.getByRole('heading', { name: message(strings, 'uidSearch.ruleTitle') }).waitFor();
});
