import { openRoute } from '../support/app.js';
import { test } from '../support/fixtures.js';

// spec: wide layout above 980 px (top bar), narrow layout below it (bottom tab bar).
test('a 1280 px window shows the top navigation and no tab bar', async ({ newPage }) => {
  const page = await newPage({ viewport: 'desktop' });
  await openRoute(page, '/');
  await page.getByRole('navigation', { name: 'Main navigation', exact: true }).waitFor({ state: 'visible' });
  await page.getByRole('navigation', { name: 'Tab bar', exact: true }).waitFor({ state: 'hidden' });
});

test('a 390 px phone shows the tab bar and no top navigation', async ({ newPage }) => {
  const page = await newPage({ viewport: 'mobile' });
  await openRoute(page, '/');
  await page.getByRole('navigation', { name: 'Tab bar', exact: true }).waitFor({ state: 'visible' });
  await page.getByRole('navigation', { name: 'Main navigation', exact: true }).waitFor({ state: 'hidden' });
});
