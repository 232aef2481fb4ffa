import { CircleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * Why a UID cannot collect cashback and the two ways to fix it (EXCHANGES.md: the most common failure
 * is an account not registered through the referral link). Used by /uidlinking and /exchangeNo.
 */
export function UidNotEligible({
  uid,
  exchangeName,
  onSignUp,
}: {
  uid: string;
  exchangeName: string;
  onSignUp?(): void;
}) {
  const { t } = useTranslation();
  return (
    <section className="card not-eligible" aria-labelledby="not-eligible-title">
      <div className="not-eligible-head">
        <CircleAlert size={28} aria-hidden="true" className="danger" />
        <h2 id="not-eligible-title">{t('binding.notEligible.title')}</h2>
      </div>
      <p>{t('binding.notEligible.why', { uid, exchange: exchangeName })}</p>
      <h3>{t('binding.notEligible.fixTitle')}</h3>
      <ol className="fix-list">
        <li>
          <strong>{t('binding.notEligible.fixNewTitle')}</strong>{' '}
          {t('binding.notEligible.fixNewBody', { exchange: exchangeName })}
        </li>
        <li>
          <strong>{t('binding.notEligible.fixTransferTitle')}</strong>{' '}
          {t('binding.notEligible.fixTransferBody', { exchange: exchangeName })}
        </li>
      </ol>
      {onSignUp ? (
        <button type="button" className="button button-primary" onClick={onSignUp}>
          {t('binding.signUpWithLink', { exchange: exchangeName })}
        </button>
      ) : null}
    </section>
  );
}
