import { useTranslation } from 'react-i18next';

/**
 * Previous / next paging with the position read out. `label` names the navigation when a page has
 * several pagers, so a screen reader can tell them apart. A list walked by cursor passes `hasNext`
 * (null while the page loads): "next" then follows the walk, and the count never says less than the
 * walk has seen or more than it knows is there, when the total moved under it.
 */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
  hasNext,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  label?: string;
  hasNext?: boolean | null;
}) {
  const { t } = useTranslation();
  const counted = Math.max(1, Math.ceil(total / pageSize));
  const pages =
    hasNext === undefined || hasNext === null
      ? Math.max(counted, page)
      : hasNext
        ? Math.max(counted, page + 1)
        : page;
  const nextDisabled = hasNext === undefined ? page >= pages : hasNext !== true;
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
        disabled={nextDisabled}
        onClick={() => onPage(page + 1)}
      >
        {t('cashback.next')}
      </button>
    </nav>
  );
}
