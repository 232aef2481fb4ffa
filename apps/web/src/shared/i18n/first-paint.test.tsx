import { LOCALES, type Locale } from '@elex/contract';
import { render, screen, waitFor } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/providers';
import { AppRoutes } from '../../app/router';
import en from '../../locales/en.json';
import ko from '../../locales/ko.json';
import zh from '../../locales/zh.json';
import { envelope, logIn, resizeTo } from '../../test/helpers';
import { clearExchangeDictionary } from '../exchanges/exchange-dictionary';
import { createQueryClient } from '../queries/query-scope';
import firstPaintEn from './first-paint/en';
import firstPaintKo from './first-paint/ko';
import firstPaintZh from './first-paint/zh';
import type { TFunction, Translator } from './i18n';
import { translate } from './translate';
import { TranslatorProvider } from './use-translation';

const CATALOGS: Record<Locale, Record<string, unknown>> = { en, zh, ko };
const FIRST_PAINT: Record<Locale, Record<string, unknown>> = {
  en: firstPaintEn,
  zh: firstPaintZh,
  ko: firstPaintKo,
};

const ROW = {
  platId: 4,
  platname: 'Bitget',
  abbreviation: 'BG',
  logo: '/logos/bg.svg',
  score: 9.1,
  cashRate: '50.00',
  limitPrice: '0.0200',
  marketPrice: '0.0600',
  personAvg: '100.000000',
  mark: [{ tag: 'popular', iconUrl: '/logos/tags/popular.svg' }],
  isRecommended: true,
  isRacing: true,
};

function serve() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL) => {
      switch (String(url)) {
        case '/elex/exchange/index':
          return envelope({
            allExchange: [ROW],
            fames: [{ platId: 4, amount: '18452.370000' }],
            hotActivity: [{ platId: 4, title: 'Cup', activityUrl: 'https://bitget.example/cup' }],
            generalActivity: [{ platId: 4, title: 'Week', activityUrl: 'https://bitget.example/week' }],
          });
        case '/elex/user/config/res.json':
          return envelope({ exchangeList: [{ id: 4, name: 'Bitget', logo: '/logos/bg.svg' }], score: [] });
        case '/elex/user/myInfo':
          return envelope({
            exchangeBinds: [
              {
                platId: 4,
                uid: '880011',
                balance: '61.250000',
                address: '0xabc',
                boundAt: '2026-01-01T00:00:00Z',
              },
            ],
            totalReward: '3.500000',
            totalRebate: '120.990000',
          });
        default:
          return envelope(null, 1004, 'Not found', 404);
      }
    }),
  );
}

/**
 * The shell and the home page with nothing but one language's first-paint strings; the keys they missed.
 * A component that used react-i18next instead of shared/i18n/use-translation would read an empty i18next
 * here, and its keys would be missed too (it would bring i18next into the first download).
 */
async function missingOnFirstPaint(locale: Locale, width: number, member: boolean): Promise<string[]> {
  const missing = new Set<string>();
  const note = (namespace: string, key: string) => {
    // Server messages show on a failure or a click, by then loaded (i18n.ts); not first-paint text.
    if (namespace !== 'msg') missing.add(key);
  };
  const bundles = { translation: FIRST_PAINT[locale] };
  const t: TFunction = (key, options) => translate(bundles, key, options, note);
  const firstPaintOnly: Translator = { subscribe: () => () => undefined, current: () => t };
  const emptyI18next = createInstance();
  await emptyI18next.init({
    resources: {},
    lng: locale,
    fallbackLng: false,
    saveMissing: true,
    missingKeyHandler: (_languages, namespace, key) => note(namespace, key),
  });
  clearExchangeDictionary();
  serve();
  resizeTo(width);
  if (member) logIn();
  render(
    <I18nextProvider i18n={emptyI18next}>
      <TranslatorProvider value={firstPaintOnly}>
        <Providers client={createQueryClient()}>
          <MemoryRouter initialEntries={['/']}>
            <AppRoutes />
          </MemoryRouter>
        </Providers>
      </TranslatorProvider>
    </I18nextProvider>,
  );
  // The home page's chunk loads lazily, which takes a while on a busy machine.
  const slow = { timeout: 10_000 };
  expect(await screen.findAllByText('Bitget', {}, slow)).not.toHaveLength(0);
  if (member) await waitFor(() => expect(screen.getAllByText(/880011/)).not.toHaveLength(0), slow);
  return [...missing];
}

describe('the first paint (issue 14)', () => {
  it.each(LOCALES)('takes its %s sections whole from the catalog', (locale) => {
    for (const [section, strings] of Object.entries(FIRST_PAINT[locale])) {
      expect(strings).toEqual(CATALOGS[locale][section]);
    }
  });

  it.each(
    LOCALES.flatMap(
      (locale) =>
        [
          [locale, 1024, false],
          [locale, 375, true],
        ] as const,
    ),
  )(
    'shows the shell and the home in %s (%i px wide, member %s) with its first-paint strings alone',
    async (locale, width, member) => {
      expect(await missingOnFirstPaint(locale, width, member)).toEqual([]);
    },
  );
});
