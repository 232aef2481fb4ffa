import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LegalDialog, type LegalDocument } from '../../features/legal/legal-dialog';
import { toast } from '../../shared/ui/toast';
import { COMMUNITY_LINKS } from '../menu';

export function Footer() {
  const { t } = useTranslation();
  const [document, setDocument] = useState<LegalDocument | null>(null);
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
              <button type="button" className="link-button" onClick={() => setDocument('terms')}>
                {t('footer.terms')}
              </button>
            </li>
            <li>
              <button type="button" className="link-button" onClick={() => setDocument('privacy')}>
                {t('footer.privacy')}
              </button>
            </li>
          </ul>
        </nav>
      </div>
      <p className="footer-rights muted">{t('footer.rights', { year: new Date().getFullYear() })}</p>
      <LegalDialog document={document} onClose={() => setDocument(null)} />
    </footer>
  );
}
