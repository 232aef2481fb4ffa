import { Toaster as SonnerToaster } from 'sonner';
import { useIsWide } from '../hooks/use-is-wide';
import { useTranslation } from '../i18n/use-translation';

/** Below the desktop top bar (64 px) and clear of its menu; at the top on a phone, which has none there. */
const DESKTOP_OFFSET = { top: 76, right: 24 };

/** The toast region and its close buttons are named in the page's language (sonner's are English). */
export default function SonnerRegion() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  return (
    <SonnerToaster
      position={isWide ? 'top-right' : 'top-center'}
      offset={isWide ? DESKTOP_OFFSET : undefined}
      theme="dark"
      // Without it sonner reads the page's direction with getComputedStyle at every render: a forced
      // style calculation of the whole page, 75 ms of the home's longest task on a slow phone (issue 14).
      // All three languages are written left to right.
      dir="ltr"
      richColors
      closeButton
      containerAriaLabel={t('common.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.close') }}
    />
  );
}
