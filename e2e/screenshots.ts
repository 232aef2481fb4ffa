/**
 * Saves full-page PNGs of routes at 1280 and 390 px in en, zh and ko, for looking at the layouts.
 * Not a test: `npm run screenshots -w @elex/e2e [-- /route ...]`. Writes to /tmp/elex-shots (outside
 * the repo) or SHOTS_DIR; uses E2E_BASE_URL when set, else starts the production server itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { locales } from './support/app.js';
import { createContext, launchBrowser, type Viewport, viewports } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';
import { startSmtpCapture } from './support/smtp-capture.js';

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

fs.mkdirSync(outDir, { recursive: true });
// The production server needs SMTP_URL; the capture receives whatever mail a route sends.
const smtp = process.env.E2E_BASE_URL ? undefined : await startSmtpCapture();
const server: RunningServer | undefined = smtp ? await startServer({ smtpUrl: smtp.url }) : undefined;
const baseURL = process.env.E2E_BASE_URL ?? (server as RunningServer).url;
const browser = await launchBrowser();
let saved = 0;
try {
  for (const locale of locales) {
    for (const viewport of Object.keys(viewports) as Viewport[]) {
      const context = await createContext(browser, { viewport, baseURL, localStorage: { locale } });
      const page = await context.newPage();
      page.on('pageerror', (error) => console.warn(`  page error on ${page.url()}: ${error.message}`));
      for (const route of routes.length > 0 ? routes : defaultRoutes) {
        await page.goto(route, { waitUntil: 'networkidle' });
        await page
          .getByRole('heading', { level: 1 })
          .first()
          .waitFor({ state: 'visible', timeout: 10_000 })
          .catch(() => console.warn(`  no h1 on ${route} (${locale}, ${viewport})`));
        const file = path.join(outDir, `${slug(route)}-${viewports[viewport].viewport.width}-${locale}.png`);
        await page.screenshot({ path: file, fullPage: true });
        saved += 1;
        console.log(file);
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
