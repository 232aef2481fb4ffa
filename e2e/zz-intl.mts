import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const order of [['nf', 'dtf', 'pr'], ['dtf', 'nf', 'pr'], ['pr', 'nf', 'dtf']]) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('http://127.0.0.1:4999/healthz');
  const times = await page.evaluate((order) => {
    const out: string[] = [];
    for (const kind of order) {
      const t0 = performance.now();
      if (kind === 'nf') new Intl.NumberFormat('en', { maximumFractionDigits: 2, roundingMode: 'trunc' } as any).format('1234.5' as any);
      if (kind === 'dtf') new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date());
      if (kind === 'pr') new Intl.PluralRules('en').select(2);
      out.push(`${kind} ${(performance.now() - t0).toFixed(1)}ms`);
    }
    const t1 = performance.now();
    new Intl.NumberFormat('ko', { maximumFractionDigits: 4 }).format(1);
    out.push(`nf-ko ${(performance.now() - t1).toFixed(1)}ms`);
    return out.join(', ');
  }, order);
  console.log(times);
  await context.close();
}
await browser.close();
