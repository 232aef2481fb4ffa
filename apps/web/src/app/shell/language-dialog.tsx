import { LOCALE_NAMES } from '@elex/contract';
import { Globe } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { currentLocale } from '../../shared/i18n/i18n';
import { useTranslation } from '../../shared/i18n/use-translation';

/** The dialog and its drawer library load on the first click, not with the first paint (issue 14). */
const LanguageChoices = lazy(() => import('./language-choices'));

export function LanguageButton({ compact }: { compact?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps its animation.
  const [opened, setOpened] = useState(false);
  const current = currentLocale();
  return (
    <>
      <button
        type="button"
        className="icon-button language-button"
        aria-label={t('nav.language')}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <Globe size={20} aria-hidden="true" />
        {compact ? null : (
          <span className="language-name" aria-hidden="true">
            {LOCALE_NAMES[current]}
          </span>
        )}
      </button>
      {opened ? (
        <Suspense fallback={null}>
          <LanguageChoices open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
