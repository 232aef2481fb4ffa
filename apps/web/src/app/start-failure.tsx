import type { Locale } from '@elex/contract';

/**
 * The contract's `networkAnomaly` and `tryAgain`, copied here so the view needs no download at all: the
 * server messages load after the first paint (issue 14). start-failure.test.tsx keeps them equal.
 */
export const START_FAILURE_TEXT: Record<Locale, { networkAnomaly: string; tryAgain: string }> = {
  en: { networkAnomaly: 'Network anomaly', tryAgain: 'Try again' },
  zh: { networkAnomaly: '网络异常', tryAgain: '重试' },
  ko: { networkAnomaly: '네트워크 이상', tryAgain: '다시 시도' },
};

/**
 * Shown when the app cannot start because its strings did not arrive (spec section 8: no answer is a
 * 'Network anomaly').
 */
export function StartFailure({ locale }: { locale: Locale }) {
  const messages = START_FAILURE_TEXT[locale];
  return (
    <main className="main start-failure" lang={locale}>
      <div className="card load-error" role="alert">
        <p>{messages.networkAnomaly}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {messages.tryAgain}
        </button>
      </div>
    </main>
  );
}
