import assert from 'node:assert/strict';
import { message, openRoute, readMessages } from '../support/app.js';
import { test } from '../support/fixtures.js';

const HANGUL = /[\uac00-\ud7af]/;

test('the chosen language is applied after a reload and kept on the next one', async ({ newPage }) => {
  const ko = readMessages('ko');
  const page = await newPage({ viewport: 'desktop' });
  await openRoute(page, '/');
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');

  await page.getByRole('button', { name: 'Language', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ state: 'visible' });
  // spec: choosing a different language stores it and reloads the page.
  const reloaded = page.waitForEvent('load');
  await dialog.getByRole('button', { name: '한국어', exact: true }).click();
  await reloaded;

  const assertKorean = async () => {
    await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'visible' });
    assert.equal(await page.locator('html').getAttribute('lang'), 'ko');
    const nav = page.getByRole('navigation', { name: message(ko, 'nav.main'), exact: true });
    await nav.getByRole('link', { name: message(ko, 'nav.home'), exact: true }).waitFor({ state: 'visible' });
    assert.match(await nav.innerText(), HANGUL);
    assert.equal(await page.evaluate(() => window.localStorage.getItem('locale')), 'ko');
  };
  await assertKorean();
  await page.reload({ waitUntil: 'networkidle' });
  await assertKorean();
});
