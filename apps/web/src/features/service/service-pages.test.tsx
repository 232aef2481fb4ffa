import { CASHBACK, LOCALES, type Locale, WITHDRAWAL } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderAt } from '../../test/helpers';
import ServiceIntroInvitePage from './service-intro-invite-page';
import ServiceIntroMorePage from './service-intro-more-page';
import ServiceIntroPage from './service-intro-page';

const t = (key: string) => i18next.t(key);

const PAGES: [string, string, () => ReactElement][] = [
  ['/serviceIntro', 'serviceIntro', () => <ServiceIntroPage />],
  ['/serviceIntroMore', 'serviceIntroMore', () => <ServiceIntroMorePage />],
  ['/serviceIntroInvite', 'serviceIntroInvite', () => <ServiceIntroInvitePage />],
];

/**
 * spec section 9, as each language writes it: trading data in 6-hour segments, payouts reviewed within
 * 48 hours (the numbers are the contract's, so a change there shows up here).
 */
const SEGMENTS: Record<Locale, string> = {
  en: `${CASHBACK.dataSegmentHours}-hour segments`,
  zh: `${CASHBACK.dataSegmentHours} 小时`,
  ko: `${CASHBACK.dataSegmentHours}시간`,
};
const FINAL: Record<Locale, string> = {
  en: `${CASHBACK.dataFinalHours} hours after it ends`,
  zh: `结束 ${CASHBACK.dataFinalHours} 小时后`,
  ko: `끝나고 ${CASHBACK.dataFinalHours}시간 뒤`,
};
const REVIEW: Record<Locale, string> = {
  en: `${WITHDRAWAL.reviewHours} hours`,
  zh: `${WITHDRAWAL.reviewHours} 小时`,
  ko: `${WITHDRAWAL.reviewHours}시간`,
};

describe.each(LOCALES)('the service pages in %s', (locale) => {
  beforeEach(async () => {
    await i18next.changeLanguage(locale);
  });

  it.each(PAGES)('%s has a title, an intro and sections that all have text', (path, pageKey, page) => {
    renderAt(page(), path);
    expect(screen.getByRole('heading', { level: 1, name: t(`pages.${pageKey}.title`) })).toBeVisible();
    expect(t(`pages.${pageKey}.intro`)).not.toBe('');
    expect(screen.getByText(t(`pages.${pageKey}.intro`))).toBeVisible();
    const headings = screen.getAllByRole('heading').filter((heading) => heading.tagName !== 'H1');
    expect(headings.length).toBeGreaterThanOrEqual(3);
    for (const heading of headings) {
      expect(heading.textContent?.trim()).not.toBe('');
      // A list's own title (it has an id) stands over items; any other heading over its paragraph.
      if (heading.id) continue;
      const body = heading.parentElement?.querySelector('p');
      expect(body?.textContent?.trim().length ?? 0).toBeGreaterThan(20);
    }
    expect(document.body.textContent).not.toMatch(/{{|}}|undefined|NaN/);
    expect(screen.getByRole('navigation', { name: t('service.nav.label') })).toBeVisible();
  });

  it('/serviceIntroMore gives the 6-hour data segments and the 48-hour payout review', () => {
    renderAt(<ServiceIntroMorePage />, '/serviceIntroMore');
    const figure = (key: string) => {
      const term = screen.getByText(t(`service.more.figures.${key}.label`));
      return term.nextElementSibling?.textContent ?? '';
    };
    expect(figure('segments')).toContain(SEGMENTS[locale]);
    expect(figure('review')).toContain(REVIEW[locale]);
    expect(figure('minimum')).toContain(WITHDRAWAL.minimumUsdt);
    // The sections say it too: data timing in the second, withdrawals in the third.
    const sections = i18next.t('service.more.sections', { returnObjects: true }) as { title: string }[];
    const section = (index: number) =>
      screen.getByRole('heading', { level: 2, name: sections[index]?.title }).parentElement;
    expect(section(1)).toHaveTextContent(SEGMENTS[locale]);
    // When the data becomes final, as the member pages say it (CASHBACK.dataFinalHours).
    expect(section(1)).toHaveTextContent(FINAL[locale]);
    expect(section(2)).toHaveTextContent(REVIEW[locale]);
  });

  it('/serviceIntro walks from sign-up to withdrawal with the same figures', () => {
    renderAt(<ServiceIntroPage />, '/serviceIntro');
    const steps = within(screen.getByRole('region', { name: t('service.intro.stepsTitle') })).getAllByRole(
      'listitem',
    );
    expect(steps).toHaveLength(5);
    expect(steps[0]).toHaveTextContent(`${CASHBACK.newUserDiscountPercent}%`);
    expect(steps[3]).toHaveTextContent(SEGMENTS[locale]);
    expect(steps[4]).toHaveTextContent(REVIEW[locale]);
    expect(steps[4]).toHaveTextContent(WITHDRAWAL.minimumUsdt);
  });
});
