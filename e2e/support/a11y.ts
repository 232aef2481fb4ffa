import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type Violation = AxeResults['violations'][number];

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

function describeViolation(violation: Violation): string {
  const targets = violation.nodes.map((node) => `      - ${node.target.map(String).join(' >> ')}`);
  return [`${violation.id} [${violation.impact}] ${violation.help} (${violation.helpUrl})`, ...targets].join(
    '\n',
  );
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules plus best practices) on the page as it is now and fails on
 * any violation of impact serious or critical, naming each rule and the elements it found.
 *
 * A page without frames is checked by `axe.run` in the page itself (the builder's legacy mode): by
 * default the builder runs axe in each frame, then opens a blank page of its own to merge the
 * results, and that page (a new renderer) was about half of each check's CPU (docs/decisions.md,
 * "The end-to-end suite's CPU"). A page with frames keeps the default, which reaches into them.
 */
export async function expectNoSeriousA11yViolations(page: Page, label = page.url()): Promise<void> {
  const builder = new AxeBuilder({ page });
  if (page.frames().length === 1) builder.setLegacyMode(true);
  const results = await builder.analyze();
  const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
  if (blocking.length === 0) return;
  throw new Error(
    `${blocking.length} serious or critical accessibility violation(s) on ${label}:\n  ${blocking
      .map(describeViolation)
      .join('\n  ')}`,
  );
}
