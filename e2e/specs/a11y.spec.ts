import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { openRoute } from '../support/app.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';

const routes = ['/', '/login', '/register', '/calculator', '/no-such-page'];
const viewports: Viewport[] = ['desktop', 'mobile'];

for (const viewport of viewports) {
  test(
    `public pages have no serious or critical axe violations on ${viewport}`,
    async ({ newPage }) => {
      const page = await newPage({ viewport });
      const failures: string[] = [];
      // Every route is checked before failing, so one run lists all of them.
      for (const route of routes) {
        await openRoute(page, route);
        try {
          await expectNoSeriousA11yViolations(page, `${route} (${viewport})`);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
      if (failures.length > 0) throw new Error(failures.join('\n\n'));
    },
    // five routes, each scanned by axe: the default 60 s leaves too little room on a busy machine.
    { timeout: 120_000 },
  );
}
