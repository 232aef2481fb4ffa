import { useTranslation } from 'react-i18next';

/**
 * Previous / next paging with the position read out. `label` names the navigation when a page has
 * several pagers, so a screen reader can tell them apart.
 */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  label?: string;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label ?? t('cashback.paging')}>
      <button
        type="button"
        className="button button-ghost"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('cashback.previous')}
      </button>
      <span aria-live="polite">{t('cashback.pageOf', { page, pages })}</span>
      <button
        type="button"
        className="button button-ghost"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('cashback.next')}
      </button>
    </nav>
  );
}
