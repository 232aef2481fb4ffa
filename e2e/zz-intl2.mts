import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const variants: Record<string, string> = {
  dateStyle: "new Intl.DateTimeFormat(L, { timeZone: 'UTC', dateStyle: 'medium' }).format(new Date())",
  parts: "new Intl.DateTimeFormat(L, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' }).format(new Date())",
  toLocale: "new Date().toLocaleDateString(L, { timeZone: 'UTC', dateStyle: 'medium' })",
  nf: "new Intl.NumberFormat(L, { maximumFractionDigits: 2 }).format(1234.5)",
};
for (const L of ['en', 'zh-CN', 'ko']) for (const [name, code] of Object.entries(variants)) {
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('http://127.0.0.1:4999/healthz');
    ms.push(await page.evaluate(({ code, L }) => { const t0 = performance.now(); new Function('L', code)(L); return performance.now() - t0; }, { code, L }));
    await context.close();
  }
  console.log(L, name, ms.map((m) => m.toFixed(1)).join(' '));
}
await browser.close();
