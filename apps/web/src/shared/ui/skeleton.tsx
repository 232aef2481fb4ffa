import { useTranslation } from '../i18n/use-translation';

/** spec: loading shows a skeleton, then the content. */
export function Skeleton({ lines = 3 }: { lines?: number }) {
  const { t } = useTranslation();
  return (
    <div className="skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">{t('common.loading')}</span>
      {Array.from({ length: lines }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <div key={index} className="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}
