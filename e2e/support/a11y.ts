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
 */
export async function expectNoSeriousA11yViolations(page: Page, label = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
  if (blocking.length === 0) return;
  throw new Error(
    `${blocking.length} serious or critical accessibility violation(s) on ${label}:\n  ${blocking
      .map(describeViolation)
      .join('\n  ')}`,
  );
}
