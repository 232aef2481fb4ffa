import { chromium } from 'playwright-core';
const url = process.argv[2] ?? 'http://127.0.0.1:4999/';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const totals = new Map<string, number>();
for (let visit = 0; visit < 3; visit++) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(url);
  await page.waitForTimeout(6000);
  const { profile } = (await cdp.send('Profiler.stop')) as any;
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const deltas: number[] = profile.timeDeltas;
  profile.samples.forEach((id: number, i: number) => {
    const n = byId.get(id);
    const cf = n.callFrame;
    const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}:${cf.columnNumber}`;
    totals.set(key, (totals.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  await context.close();
}
await browser.close();
for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / 3).toFixed(1).padStart(8), 'ms', k);
