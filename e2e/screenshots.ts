/**
 * Saves full-page PNGs of routes at 1280, 1024 and 390 px in en, zh and ko, for looking at the layouts.
 * Not a test: `npm run screenshots -w @elex/e2e [-- [--member] /route ...]`. Writes to
 * /tmp/elex-shots (outside the repo) or SHOTS_DIR; uses E2E_BASE_URL when set, else starts the
 * production server itself. `--member` (own server only) seeds a member who is also an operator, with cashback,
 * withdrawals in each state and a support request, and shoots the routes logged in, so /mypage,
 * /withdrawal and /admin pages can be looked at with rows in their tables.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locales } from './support/app.js';
import { createContext, launchBrowser, type Viewport, viewports } from './support/browser.js';
import { type RunningServer, runOps, startServer } from './support/server.js';
import { type SmtpCapture, startSmtpCapture } from './support/smtp-capture.js';
import {
  bindUid,
  type Envelope,
  post,
  requestWithdrawal,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from './support/withdrawals.js';

const defaultRoutes = [
  '/',
  '/login',
  '/register',
  '/calculator',
  '/exchange',
  '/exchangeDetail?id=1',
  '/serviceIntro',
  '/serviceIntroMore',
  '/serviceIntroInvite',
  '/invitation',
  '/exchangeNo?uid=123&platId=1',
  '/no-such-page',
];
const routes = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
const outDir = process.env.SHOTS_DIR ?? '/tmp/elex-shots';

const slug = (route: string) =>
  route
    .replace(/^\/$/, 'home')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '');

const asMember = process.argv.includes('--member');
if (asMember && process.env.E2E_BASE_URL) throw new Error('--member needs the server this script starts');

/**
 * A member who is also an operator, with data on every money screen: a bound UID holding 150 USDT of
 * cashback, one withdrawal paid, one under review and one rejected, and a support request; seeded as
 * the layout sweep seeds (e2e/support/withdrawals.ts) on a data directory of our own.
 */
async function startWithMember(smtp: SmtpCapture) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-shots-'));
  const appSecret = randomBytes(24).toString('hex');
  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 1, cashback: '150' });
  const member = seeded[0] as WithdrawingMember;
  await runOps(['admin:grant', member.email, '--operator', seeded.reviewer.email], { dataDir, appSecret });
  const server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  await bindUid(server.url, member, seeded.reviewer);
  // Each request takes a mailed code, and a member may ask for one a minute (VERIFICATION_CODE.resendSeconds).
  const coolDown = () => new Promise((resolve) => setTimeout(resolve, 61_000));
  const paid = await requestWithdrawal(server.url, member, '50', smtp.dir);
  await coolDown();
  const rejected = await requestWithdrawal(server.url, member, '50', smtp.dir);
  await coolDown();
  await requestWithdrawal(server.url, member, '50', smtp.dir);
  const hash = `0x${randomBytes(32).toString('hex')}`;
  const must = async (answer: Promise<Envelope>) => {
    const { state, message } = await answer;
    if (state !== 0) throw new Error(`seeding the screenshots' data: ${message}`);
  };
  const reason = 'The receiving address belongs to a sanctioned service.';
  await must(
    post(server.url, '/elex/admin/approveWithdrawal', { id: paid, txHash: hash }, seeded.reviewer.token),
  );
  await must(
    post(server.url, '/elex/admin/rejectWithdrawal', { id: rejected, reason }, seeded.reviewer.token),
  );
  const question = { kind: 'other', text: 'Where is my cashback for yesterday?' };
  await must(post(server.url, '/elex/support/create', question, member.token));
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { server: { ...server, stop }, token: member.token, uid: member.uid };
}

fs.mkdirSync(outDir, { recursive: true });
// The production server needs SMTP_URL; the capture receives whatever mail a route sends.
const smtp = process.env.E2E_BASE_URL ? undefined : await startSmtpCapture();
if (smtp) process.env.E2E_MAIL_DIR = smtp.dir;
let server: RunningServer | undefined;
let token: string | undefined;
/** `{uid}` in a route stands for the seeded member's UID (e.g. /exchangeLinkDetail?platId=4&UID={uid}). */
let uid = '';
if (smtp && asMember) ({ server, token, uid } = await startWithMember(smtp));
else if (smtp) server = await startServer({ smtpUrl: smtp.url });
const baseURL = process.env.E2E_BASE_URL ?? (server as RunningServer).url;
const LAPTOP_WIDTH = 1024;
const browser = await launchBrowser();
let saved = 0;
try {
  for (const locale of locales) {
    for (const viewport of Object.keys(viewports) as Viewport[]) {
      const storage: Record<string, string> = token ? { locale, token } : { locale };
      const context = await createContext(browser, { viewport, baseURL, localStorage: storage });
      const page = await context.newPage();
      // Charts draw at once and carousels hold still, so a shot shows the finished page.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      page.on('pageerror', (error) => console.warn(`  page error on ${page.url()}: ${error.message}`));
      for (const route of routes.length > 0 ? routes : defaultRoutes) {
        await page.goto(route.replaceAll('{uid}', uid), { waitUntil: 'networkidle' });
        await page
          .getByRole('heading', { level: 1 })
          .first()
          .waitFor({ state: 'visible', timeout: 10_000 })
          .catch(() => console.warn(`  no h1 on ${route} (${locale}, ${viewport})`));
        // Desktop is shot at 1280 and again at 1024, a common laptop width just above the 980 px switch.
        const widths = viewport === 'desktop' ? [viewports.desktop.viewport.width, LAPTOP_WIDTH] : [];
        for (const width of widths.length > 0 ? widths : [viewports[viewport].viewport.width]) {
          if (width !== viewports[viewport].viewport.width) {
            await page.setViewportSize({ width, height: viewports[viewport].viewport.height });
            await page.waitForTimeout(300);
          }
          const file = path.join(outDir, `${slug(route)}-${width}-${locale}.png`);
          await page.screenshot({ path: file, fullPage: true });
          saved += 1;
          console.log(file);
        }
        if (viewport === 'desktop') await page.setViewportSize(viewports.desktop.viewport);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server?.stop();
  await smtp?.stop();
}
console.log(`${saved} screenshots in ${outDir}`);
