import { useTranslation } from 'react-i18next';

/**
 * Why a UID that was not registered with our referral code cannot be bound, and the two ways to fix
 * it (the most common binding failure). Shown in /uidlinking's 'Binding failed' dialog, under the
 * spec's message 'Only accounts created with the product's referral code can be bound'.
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
    <div className="not-eligible">
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
        <button type="button" className="button button-primary button-block" onClick={onSignUp}>
          {t('binding.signUpWithLink', { exchange: exchangeName })}
        </button>
      ) : null}
    </div>
  );
}
