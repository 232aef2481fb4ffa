import fs from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { startServer } from './support/server.js';
import { startSmtpCapture } from './support/smtp-capture.js';

function busy() {
  const [, ...v] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = v.map(Number);
  return { idle: n[3]! + n[4]!, total: n.reduce((a, b) => a + b, 0) };
}
const coreSec = (x: ReturnType<typeof busy>, y: ReturnType<typeof busy>) =>
  ((y.total - x.total - (y.idle - x.idle)) / 100).toFixed(2);
const smtp = await startSmtpCapture();
const server = await startServer({ smtpUrl: smtp.url });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
  headless: true,
});
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
for (const route of ['/', '/exchange', '/calculator']) {
  await page.goto(server.url + route, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForTimeout(500);
  for (let i = 0; i < 2; i++) {
    const a = busy();
    const t0 = Date.now();
    const r = await new AxeBuilder({ page }).analyze();
    const b = busy();
    console.log(route, 'axe ms', Date.now() - t0, 'core-s', coreSec(a, b), 'nodes', r.passes.length);
  }
  const a = busy();
  const t0 = Date.now();
  const r = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const b = busy();
  console.log(route, 'axe legacy ms', Date.now() - t0, 'core-s', coreSec(a, b));
}
await browser.close();
await server.stop();
await smtp.stop();
