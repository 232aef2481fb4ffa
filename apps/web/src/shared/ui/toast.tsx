import { useTranslation } from 'react-i18next';
import { Toaster as SonnerToaster, toast as sonner } from 'sonner';
import { useIsWide } from '../hooks/use-is-wide';

/** The error toasts still on screen: a success that follows makes them stale. */
const openErrors = new Set<string | number>();

/**
 * Toasts are closable (spec section 8: the server's message shows as a closable toast). A description
 * adds a second line: the reason under 'Password reset failed', what follows from a success. A success
 * clears the errors still shown before it (issue 15: a stale "Invalid verification code" stayed stacked
 * beside "Welcome").
 */
export const toast = {
  error: (message: string, description?: string) => {
    const id = sonner.error(message, {
      closeButton: true,
      description,
      onDismiss: () => openErrors.delete(id),
      onAutoClose: () => openErrors.delete(id),
    });
    openErrors.add(id);
    return id;
  },
  success: (message: string, description?: string) => {
    for (const id of openErrors) sonner.dismiss(id);
    openErrors.clear();
    return sonner.success(message, { closeButton: true, description });
  },
  warning: (message: string) => sonner.warning(message, { closeButton: true }),
  /** Calm news, neither success nor trouble (a code mailed moments ago is still to be used). */
  info: (message: string) => sonner.info(message, { closeButton: true }),
};

/** Below the desktop top bar (64 px) and clear of its menu; at the top on a phone, which has none there. */
const DESKTOP_OFFSET = { top: 76, right: 24 };

/** The toast region and its close buttons are named in the page's language (sonner's are English). */
export function Toaster() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  return (
    <SonnerToaster
      position={isWide ? 'top-right' : 'top-center'}
      offset={isWide ? DESKTOP_OFFSET : undefined}
      theme="dark"
      richColors
      closeButton
      containerAriaLabel={t('common.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.close') }}
    />
  );
}
