import { type Locale, MESSAGES } from '@elex/contract';

/**
 * Shown when the app cannot start because its strings did not arrive (spec section 8: no answer is a
 * 'Network anomaly'). It needs nothing but the contract's messages, which ship in the main chunk.
 */
export function StartFailure({ locale }: { locale: Locale }) {
  const messages = MESSAGES[locale];
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
