import { useTranslation } from 'react-i18next';

/** The labelled exchange picker of the roster and rebates views. */
export function ExchangeSelect({
  id,
  exchanges,
  value,
  onChange,
}: {
  id: string;
  exchanges: ReadonlyArray<{ platId: number; name: string }>;
  value: number | undefined;
  onChange(platId: number): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="inline-field">
      <label htmlFor={id}>{t('admin.reconciliation.exchange')}</label>
      <select id={id} value={value ?? ''} onChange={(event) => onChange(Number(event.target.value))}>
        {exchanges.map((exchange) => (
          <option key={exchange.platId} value={exchange.platId}>
            {exchange.name}
          </option>
        ))}
      </select>
    </div>
  );
}
