import assert from 'node:assert/strict';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { message, openRoute, readMessages } from '../support/app.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';

const viewports: Viewport[] = ['desktop', 'mobile'];

for (const viewport of viewports) {
  test(
    `the public site has no serious or critical axe violations (${viewport})`,
    async ({ newPage, baseUrl }) => {
      const index = (await (
        await fetch(`${baseUrl}/elex/exchange/index`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()) as { content: { allExchange: Array<{ platId: number }> } };
      const first = index.content.allExchange[0]?.platId;
      const routes = [
        '/',
        '/exchange',
        `/exchangeDetail?id=${first}`,
        '/calculator',
        '/serviceIntro',
        '/serviceIntroMore',
        '/serviceIntroInvite',
        '/invitation?inviteCode=FRIEND1',
        '/login',
        '/register',
        '/no-such-page',
      ];
      const page = await newPage({ viewport });
      const failures: string[] = [];
      const check = async (label: string) => {
        try {
          await expectNoSeriousA11yViolations(page, `${label} (${viewport})`);
        } catch (error) {
          failures.push((error as Error).message);
        }
      };
      for (const route of routes) {
        await openRoute(page, route);
        if (route === '/') await page.getByRole('tablist').waitFor();
        if (route.startsWith('/exchangeDetail')) await page.getByRole('table').first().waitFor();
        await check(route);
      }

      // The sign-up dialog of the detail page, open.
      const strings = readMessages('en');
      await openRoute(page, `/exchangeDetail?id=${first}`);
      await page.getByRole('button', { name: /^Sign up at / }).click();
      await page.getByRole('dialog').waitFor();
      await check('the sign-up dialog');

      // The calculator's result with its chart.
      await openRoute(page, '/calculator');
      await page.getByRole('radio').first().check();
      await page.getByRole('button', { name: message(strings, 'calculator.next') }).click();
      await page.getByRole('button', { name: message(strings, 'calculator.next') }).click();
      await page.getByRole('textbox').fill('1000');
      await page.getByRole('button', { name: message(strings, 'calculator.next') }).click();
      await page.getByRole('radio').first().check();
      await page.getByRole('button', { name: message(strings, 'calculator.calculate') }).click();
      await page.locator('.comparison-chart svg').first().waitFor();
      await check('the calculator result');

      if (failures.length > 0) throw new Error(failures.join('\n\n'));
    },
    // eleven routes, a dialog and the calculator, each scanned by axe (25–34 s on 2 cores, alone or in the whole e2e run): the default 60 s leaves too little room on a busy machine.
    { timeout: 120_000 },
  );
}

test('the axe check fails a page with serious violations and names each rule', async ({ newPage }) => {
  const page = await newPage();
  await page.setContent(
    '<main><h1>Check</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button></main>',
  );
  await assert.rejects(expectNoSeriousA11yViolations(page, 'a page made to fail'), (error: Error) => {
    assert.match(error.message, /on a page made to fail/);
    assert.match(error.message, /image-alt \[critical\]/);
    assert.match(error.message, /button-name \[critical\]/);
    return true;
  });
});
