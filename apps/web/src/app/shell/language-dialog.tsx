import { LAYOUT, LOCALE_NAMES, LOCALES, type Locale } from '@elex/contract';
import { Check, Globe } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../../shared/i18n/i18n';
import { storage } from '../../shared/storage';
import { ResponsiveDialog } from '../../shared/ui/responsive-dialog';

/** spec: choosing a different language stores it, applies it, closes the dialog and reloads. */
export function chooseLocale(next: Locale, reload: () => void = () => window.location.reload()) {
  if (next === currentLocale()) return false;
  storage.setLocale(next);
  document.documentElement.lang = next;
  reload();
  return true;
}

export function LanguageButton({ compact }: { compact?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const current = currentLocale();
  return (
    <>
      <button
        type="button"
        className="icon-button language-button"
        aria-label={t('nav.language')}
        onClick={() => setOpen(true)}
      >
        <Globe size={20} aria-hidden="true" />
        {compact ? null : (
          <span className="language-name" aria-hidden="true">
            {LOCALE_NAMES[current]}
          </span>
        )}
      </button>
      <ResponsiveDialog
        open={open}
        onOpenChange={setOpen}
        title={t('language.title')}
        width={LAYOUT.languageDialogWidth}
      >
        <ul className="choice-list">
          {LOCALES.map((locale) => (
            <li key={locale}>
              <button
                type="button"
                className="choice"
                lang={locale}
                aria-current={locale === current ? 'true' : undefined}
                onClick={() => {
                  setOpen(false);
                  if (chooseLocale(locale)) void changeLocale(locale);
                }}
              >
                <span>{LOCALE_NAMES[locale]}</span>
                {locale === current ? <Check size={18} aria-label={t('language.current')} /> : null}
              </button>
            </li>
          ))}
        </ul>
      </ResponsiveDialog>
    </>
  );
}
