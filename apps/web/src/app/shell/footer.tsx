import { lazy, Suspense, useState } from 'react';
import { whenStringsComplete } from '../../shared/i18n/i18n';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { LegalDocument } from '../../shared/ui/legal-dialog';
import { toast } from '../../shared/ui/toast';
import { COMMUNITY_LINKS } from '../menu';

/** Loads on the first click with the legal texts (not first-paint strings): issue 14. */
const LegalDialog = lazy(() =>
  Promise.all([import('../../shared/ui/legal-dialog'), whenStringsComplete()]).then(([module]) => ({
    default: module.LegalDialog,
  })),
);

export function Footer() {
  const { t } = useTranslation();
  const [document, setDocument] = useState<LegalDocument | null>(null);
  // Mounted from the first opening on, so closing keeps its animation.
  const [opened, setOpened] = useState(false);
  const show = (chosen: LegalDocument) => {
    setOpened(true);
    setDocument(chosen);
  };
  return (
    <footer className="footer">
      <div className="footer-inner">
        <div>
          <p className="footer-brand">{t('brand.name')}</p>
          <p className="muted">{t('footer.risk')}</p>
        </div>
        <nav aria-label={t('footer.community')}>
          <h2 className="footer-heading">{t('footer.community')}</h2>
          <ul>
            {COMMUNITY_LINKS.map((link) => (
              <li key={link.key}>
                {link.href ? (
                  <a href={link.href} target="_blank" rel="noopener noreferrer">
                    {t(`footer.${link.key}`)}
                    <span className="visually-hidden"> {t('common.opensInNewWindow')}</span>
                  </a>
                ) : (
                  // spec section 2: an entry with no target shows the warning 'Coming soon'.
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => toast.warning(t('msg:comingSoon'))}
                  >
                    {t(`footer.${link.key}`)}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t('footer.legal')}>
          <h2 className="footer-heading">{t('footer.legal')}</h2>
          <ul>
            <li>
              <button type="button" className="link-button" onClick={() => show('terms')}>
                {t('footer.terms')}
              </button>
            </li>
            <li>
              <button type="button" className="link-button" onClick={() => show('privacy')}>
                {t('footer.privacy')}
              </button>
            </li>
          </ul>
        </nav>
      </div>
      <p className="footer-rights muted">{t('footer.rights', { year: new Date().getFullYear() })}</p>
      {opened ? (
        <Suspense fallback={null}>
          <LegalDialog document={document} onClose={() => setDocument(null)} />
        </Suspense>
      ) : null}
    </footer>
  );
}
