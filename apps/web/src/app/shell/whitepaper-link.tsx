import { FileText } from 'lucide-react';
import { useTranslation } from '../../shared/i18n/use-translation';
import { toast } from '../../shared/ui/toast';
import { WHITEPAPER_URL } from '../menu';

/** The external whitepaper link in a new tab; with no address configured it says 'Coming soon'. */
export function WhitepaperLink({ iconOnly }: { iconOnly?: boolean }) {
  const { t } = useTranslation();
  const label = t('nav.whitepaper');
  const content = iconOnly ? <FileText size={20} aria-hidden="true" /> : label;
  if (!WHITEPAPER_URL) {
    return (
      <button
        type="button"
        className={iconOnly ? 'icon-button' : 'nav-link'}
        aria-label={iconOnly ? label : undefined}
        onClick={() => toast.warning(t('msg:comingSoon'))}
      >
        {content}
      </button>
    );
  }
  return (
    <a
      href={WHITEPAPER_URL}
      target="_blank"
      rel="noopener noreferrer"
      className={iconOnly ? 'icon-button' : 'nav-link'}
      aria-label={iconOnly ? `${label} ${t('common.opensInNewWindow')}` : undefined}
    >
      {content}
    </a>
  );
}
