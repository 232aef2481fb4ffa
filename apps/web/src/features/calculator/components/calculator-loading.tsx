import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/** The card shown while the server estimates; its heading takes focus like a step's. */
export function CalculatorLoading({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation();
  return (
    <div className="card calculator-loading" role="status">
      <h2 ref={headingRef} tabIndex={-1}>
        {t('calculator.loading')}
      </h2>
      {/* The card is the live region; the shimmer is decoration. */}
      <div className="skeleton" aria-hidden="true">
        <div className="skeleton-line" />
        <div className="skeleton-line" />
        <div className="skeleton-line" />
      </div>
    </div>
  );
}
