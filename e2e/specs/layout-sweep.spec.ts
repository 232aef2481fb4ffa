import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { type Locale, locales } from '../support/app.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';
import { type PageRoute, readPageRoutes } from '../support/route-table.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';
import {
  BITGET,
  bindUid,
  post,
  requestWithdrawal,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from '../support/withdrawals.js';

/**
 * Issue 15's layout sweep: every page route of the web router (read from router.tsx, so a page added
 * there is swept without editing this file), in en, zh and ko, at 320, 390, 768, 981, 1024, 1280 and
 * 1440 px. Public pages are swept as a visitor, member and console pages as a member who is also an
 * operator, with seeded data (a bound UID with cashback, a withdrawal under review, a support request)
 * so tables and lists have rows. At each width it asserts:
 *
 * 1. no horizontal page overflow: the document is no wider than the viewport;
 * 2. every visible interactive element (link, button, field, anything focusable) lies within the
 *    viewport horizontally. The rule for what a user must reach:
 *    - an element inside a container that scrolls sideways on its own (overflow-x auto or scroll: a
 *      table wrapper, a carousel) is judged by that container instead: the container must be in view,
 *      its content may run past it (the user scrolls the container, not the page);
 *    - the part of an element clipped away by an ancestor (overflow-x hidden or clip) does not count,
 *      and an element clipped away entirely is not visible (a carousel's next slide);
 *    - elements no one can reach are left out: display none, visibility hidden, inside [inert] or
 *      aria-hidden, and visually hidden ones of 1 px or less (screen-reader text, a file input);
 * 3. the top bar (the page's header) is fully visible: every link, button and image in it lies within
 *    the viewport, with no exception for clipping (a header that hides its language button fails).
 * 4. at 1024 px and wider, outside the operator console, a table in a sideways scroller is shown whole:
 *    the desktop layout has the room, and a trader does not scroll to find a table's last column (the
 *    support list's last update was cut off in zh and ko at 1024 px). The console's wide tables may
 *    scroll.
 *
 * Each failure names the route, width, language and element (tag, text or aria-label, edges). To stay
 * fast one page per language and layout is reused: routes are opened by client-side navigation (the
 * app's router follows pushState + popstate) and every width is checked by resizing that page, since
 * the desktop (above 980 px) and phone layouts are one React tree each; a page counts as loaded when a
 * new h1 is visible and the network is quiet.
 */
const WIDTHS: Record<Viewport, number[]> = { mobile: [320, 390, 768], desktop: [981, 1024, 1280, 1440] };

/** Addresses for routes that need an id or a query, from the seeded data. */
interface Seed {
  member: WithdrawingMember;
  userId: number;
  supportId: string;
}
const SAMPLES: Record<string, (seed: Seed) => string> = {
  '/exchangeDetail': () => `/exchangeDetail?id=${BITGET.platId}`,
  '/exchangeNo': (seed) => `/exchangeNo?uid=${seed.member.uid}&platId=${BITGET.platId}`,
  '/exchangeLinkDetail': (seed) => `/exchangeLinkDetail?platId=${BITGET.platId}&UID=${seed.member.uid}`,
  '/withdrawal': (seed) => `/withdrawal?platId=${BITGET.platId}&uid=${seed.member.uid}`,
  '/uidlinking': () => `/uidlinking?platId=${BITGET.platId}`,
  '/mypage/support/:id': (seed) => `/mypage/support/${seed.supportId}`,
  '/admin/members/:userId': (seed) => `/admin/members/${seed.userId}`,
  '/admin/catalog/:platId': () => `/admin/catalog/${BITGET.platId}`,
  '/admin/support/:id': (seed) => `/admin/support/${seed.supportId}`,
};
const NOT_FOUND = '/no-such-page';

const appSecret = randomBytes(24).toString('hex');
let root: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let seed: Seed;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-sweep-'));
  const dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 1, cashback: '150' });
  const member = seeded[0] as WithdrawingMember;
  await runOps(['admin:grant', member.email, '--operator', seeded.reviewer.email], { dataDir, appSecret });
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  await bindUid(server.url, member, seeded.reviewer);
  await requestWithdrawal(server.url, member, '50', smtp.dir);
  const found = await post(server.url, '/elex/admin/searchMembers', { query: member.email }, member.token);
  const requests = await post(server.url, '/elex/support/list', {}, member.token);
  const userId = (found.content?.rows as { userId: number }[] | undefined)?.[0]?.userId;
  const supportId = (requests.content?.records as { id: string }[] | undefined)?.[0]?.id;
  if (userId === undefined || supportId === undefined)
    throw new Error('the seeded member or request is missing');
  seed = { member, userId, supportId };
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** The routes one sweep opens, with a real address for those that need an id or a query. */
function addresses(routes: PageRoute[], asMember: boolean): { route: string; url: string }[] {
  const chosen = routes.filter((route) => (asMember ? route.access === 'member' : route.access !== 'member'));
  // A member sees the home page and an exchange's page with their own figures too.
  if (asMember) chosen.push({ path: '/', access: 'any' }, { path: '/exchangeDetail', access: 'any' });
  const missing = chosen.filter((route) => route.path.includes(':') && !SAMPLES[route.path]);
  if (missing.length > 0) {
    throw new Error(
      `add an address with a real id to SAMPLES for ${missing.map((route) => route.path).join(', ')}`,
    );
  }
  const list = chosen.map((route) => ({ route: route.path, url: SAMPLES[route.path]?.(seed) ?? route.path }));
  return asMember ? list : [...list, { route: NOT_FOUND, url: NOT_FOUND }];
}

/** Waits until no request of the page is in flight (lazy chunks, data, images) for a moment. */
function trackRequests(page: Page) {
  let inFlight = 0;
  page.on('request', () => {
    inFlight += 1;
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async () => {
    const deadline = Date.now() + 10_000;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if (inFlight > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= 150) return;
      await page.waitForTimeout(25);
    }
  };
}

/** Client-side navigation: the router listens to popstate and renders the address now in the bar. */
async function navigate(page: Page, url: string, networkQuiet: () => Promise<void>) {
  await page.evaluate((next) => {
    for (const heading of Array.from(document.querySelectorAll('h1'))) heading.setAttribute('data-swept', '');
    window.history.pushState(null, '', next);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await page.locator('h1:not([data-swept])').first().waitFor({ state: 'visible', timeout: 20_000 });
  await networkQuiet();
}

interface Finding {
  what: string;
}

/** Runs in the page: the three rules of the comment above, one line per problem found. */
function findLayoutProblems(): Finding[] {
  const viewportWidth = document.documentElement.clientWidth;
  const problems: Finding[] = [];
  const describe = (element: Element, rect: DOMRect) => {
    const label =
      element.getAttribute('aria-label') ||
      (element as HTMLInputElement).labels?.[0]?.textContent ||
      element.textContent ||
      element.getAttribute('name') ||
      element.getAttribute('href') ||
      '';
    const text = label.replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${element.tagName.toLowerCase()}> "${text}" from ${Math.round(rect.left)} to ${Math.round(rect.right)} px`;
  };
  const pageWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (pageWidth > viewportWidth) {
    problems.push({ what: `the page is ${pageWidth} px wide in a ${viewportWidth} px viewport` });
  }
  const reachable = (element: Element) =>
    element.checkVisibility({ visibilityProperty: true }) &&
    !element.closest('[inert], [aria-hidden="true"]');
  const interactive =
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';

  // The top bar or a phone's header: the first header outside the page's content (pages have their own).
  const header = Array.from(document.querySelectorAll('header')).find(
    (candidate) => !candidate.closest('main'),
  );
  const inHeader = new Set<Element>();
  if (header) {
    for (const item of Array.from(header.querySelectorAll(`${interactive}, img, svg`))) {
      inHeader.add(item);
      if (!reachable(item)) continue;
      const rect = item.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.left < -0.5 || rect.right > viewportWidth + 0.5) {
        problems.push({
          what: `top bar: ${describe(item, rect)} is not fully visible (viewport ${viewportWidth} px)`,
        });
      }
    }
  }

  for (const element of Array.from(document.querySelectorAll(interactive))) {
    if (inHeader.has(element) || !reachable(element)) continue;
    const own = element.getBoundingClientRect();
    if (own.width <= 1 || own.height <= 1) continue;
    let left = own.left;
    let right = own.right;
    let judged: Element = element;
    for (
      let ancestor = element.parentElement;
      ancestor && ancestor !== document.body;
      ancestor = ancestor.parentElement
    ) {
      const overflowX = getComputedStyle(ancestor).overflowX;
      if (overflowX === 'visible') continue;
      const box = ancestor.getBoundingClientRect();
      if (overflowX === 'auto' || overflowX === 'scroll') {
        // Reached by scrolling this container: judge the container's own box from here up.
        judged = ancestor;
        left = box.left;
        right = box.right;
      } else {
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
    }
    if (right - left <= 0) continue; // clipped away entirely: not visible
    if (left < -0.5 || right > viewportWidth + 0.5) {
      const where =
        judged === element ? '' : ` (in a scrolling ${judged.tagName.toLowerCase()}.${judged.className})`;
      problems.push({
        what: `${describe(element, own)}${where} is outside the ${viewportWidth} px viewport (visible part ${Math.round(left)} to ${Math.round(right)} px)`,
      });
    }
  }
  return problems;
}

/** Rule 4: every sideways scroller holding a table shows all of it, one line per cut-off table. */
function findCutTables(): Finding[] {
  const problems: Finding[] = [];
  for (const scroller of Array.from(document.querySelectorAll('main *'))) {
    const overflowX = getComputedStyle(scroller).overflowX;
    if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
    if (!scroller.querySelector('table') || !scroller.checkVisibility()) continue;
    if (scroller.scrollWidth > scroller.clientWidth + 1) {
      problems.push({
        what: `a table is ${scroller.scrollWidth} px wide in its ${scroller.clientWidth} px scroller (.${scroller.className}): its last columns are cut off until scrolled`,
      });
    }
  }
  return problems;
}

/** The console's tables may scroll; a trader's pages show theirs whole on a desktop. */
const DESKTOP_TABLE_WIDTH = 1024;
const showsTablesWhole = (route: string, width: number) =>
  width >= DESKTOP_TABLE_WIDTH && !route.startsWith('/admin');

async function settle(page: Page) {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

async function sweep(
  page: Page,
  urls: { route: string; url: string }[],
  widths: number[],
  locale: Locale,
  who: string,
): Promise<string[]> {
  const failures: string[] = [];
  const startedAt = Date.now();
  const networkQuiet = trackRequests(page);
  await page.goto(urls[0]?.url ?? '/', { waitUntil: 'networkidle' });
  // tsx compiles this file keeping function names with a helper the page does not have.
  await page.evaluate('window.__name = (target) => target');
  for (const [index, { route, url }] of urls.entries()) {
    try {
      // Generous: the first page of a context loads every chunk on a machine that may be busy.
      if (index === 0) await page.locator('h1').first().waitFor({ state: 'visible', timeout: 30_000 });
      else await navigate(page, url, networkQuiet);
    } catch {
      failures.push(`${route} (${locale}, ${who}): no page heading appeared at ${url}`);
      continue;
    }
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      await settle(page);
      const problems = await page.evaluate(findLayoutProblems);
      if (showsTablesWhole(route, width)) problems.push(...(await page.evaluate(findCutTables)));
      for (const problem of problems)
        failures.push(`${route} at ${width} px (${locale}, ${who}): ${problem.what}`);
    }
  }
  process.stderr.write(
    `# layout: ${urls.length} routes at ${widths.join(', ')} px (${locale}, ${who}) in ${Math.round((Date.now() - startedAt) / 1000)} s\n`,
  );
  return failures;
}

// One test per language and kind of reader, so `--test-name-pattern` can pick one (e.g. "(en,
// visitor)") and a slow machine's timeout loses one part, not the whole sweep. Its desktop and phone
// pages run side by side: most of a page's time is waiting for the network and frames.
for (const locale of locales) {
  for (const asMember of [false, true]) {
    const who = asMember ? 'member and operator' : 'visitor';
    test(
      `every route fits every width (${locale}, ${who}): no sideways scroll, every control and the whole top bar in view, desktop tables whole`,
      async ({ newPage }) => {
        const base = (server as RunningServer).url;
        const urls = addresses(readPageRoutes(), asMember).map(({ route, url }) => ({
          route,
          url: `${base}${url}`,
        }));
        const storage: Record<string, string> = asMember ? { locale, token: seed.member.token } : { locale };
        const viewports = ['desktop', 'mobile'] as const;
        const found = await Promise.all(
          viewports.map(async (viewport) => {
            const page = await newPage({ viewport, localStorage: storage });
            return sweep(page, urls, WIDTHS[viewport], locale, who);
          }),
        );
        const failures = found.flat();
        if (failures.length > 0) {
          throw new Error(`${failures.length} layout problem(s):\n  ${failures.join('\n  ')}`);
        }
      },
      { timeout: 300_000 },
    );
  }
}
