import { test } from '../support/fixtures.js';

test('when the language strings cannot be fetched, the page says Network anomaly and offers Try again', async ({
  newPage,
}) => {
  const page = await newPage({
    localStorage: { locale: 'zh' },
    ignoreErrors: [
      /The app could not start/,
      /Failed to load resource/,
      /Failed to fetch dynamically imported module/,
    ],
  });
  // The Chinese strings are their own chunk (one per language): make it unreachable.
  await page.route(/\/assets\/zh-[^/]+\.js$/, (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  const alert = page.getByRole('alert');
  await alert.getByText('网络异常').waitFor({ state: 'visible' });
  await alert.getByRole('button', { name: '重试' }).waitFor({ state: 'visible' });
});
