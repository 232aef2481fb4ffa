import { EXCHANGE_UID_PATTERN, type ExchangeDictionaryEntry } from '@elex/contract';
import { Search } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { uidSearchHref } from '../../../shared/exchanges/paths';
import { useTranslation } from '../../../shared/i18n/use-translation';

/** spec section 2: the header's exchange picker and UID search box; a search goes to /exchangeNo. */
export function UidSearchForm({ exchanges }: { exchanges: readonly ExchangeDictionaryEntry[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [platId, setPlatId] = useState('');
  const [uid, setUid] = useState('');
  const [error, setError] = useState<string | null>(null);
  const chosen = platId || String(exchanges[0]?.id ?? '');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = uid.trim();
    if (!chosen) return setError(t('msg:exchangeRequired'));
    if (!EXCHANGE_UID_PATTERN.test(trimmed)) return setError(t('msg:uidInvalid'));
    setError(null);
    navigate(uidSearchHref(trimmed, Number(chosen)));
  };

  return (
    <form
      role="search"
      className="uid-search card"
      aria-labelledby="uid-search-title"
      onSubmit={onSubmit}
      noValidate
    >
      <h2 id="uid-search-title" className="uid-search-title">
        {t('homePublic.searchTitle')}
      </h2>
      <div className="uid-search-row">
        <div className="field">
          <label htmlFor="uid-search-exchange">{t('homePublic.searchExchange')}</label>
          <select id="uid-search-exchange" value={chosen} onChange={(event) => setPlatId(event.target.value)}>
            {exchanges.map((exchange) => (
              <option key={exchange.id} value={exchange.id}>
                {exchange.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field uid-search-input">
          <label htmlFor="uid-search-uid">{t('homePublic.searchUid')}</label>
          <input
            id="uid-search-uid"
            inputMode="text"
            autoComplete="off"
            spellCheck={false}
            value={uid}
            placeholder={t('homePublic.searchUidPlaceholder')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'uid-search-error' : undefined}
            onChange={(event) => setUid(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary uid-search-submit">
          <Search size={18} aria-hidden="true" />
          {t('homePublic.searchSubmit')}
        </button>
      </div>
      {error ? (
        <p id="uid-search-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
