import { LAYOUT, LOCALE_NAMES, LOCALES } from '@elex/contract';
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../../shared/i18n/i18n';
import { ResponsiveDialog } from '../../shared/ui/responsive-dialog';
import { chooseLocale } from './choose-locale';

/** The language dialog itself, its own chunk (language-dialog.tsx). */
export default function LanguageChoices({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation();
  const current = currentLocale();
  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={onOpenChange}
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
                onOpenChange(false);
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
  );
}
