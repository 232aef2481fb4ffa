import { useTranslation } from 'react-i18next';
import { Toaster as SonnerToaster, toast as sonner } from 'sonner';

/**
 * Toasts are closable (spec section 8: the server's message shows as a closable toast). A description
 * adds a second line: the reason under 'Password reset failed', what follows from a success.
 */
export const toast = {
  error: (message: string, description?: string) => sonner.error(message, { closeButton: true, description }),
  success: (message: string, description?: string) =>
    sonner.success(message, { closeButton: true, description }),
  warning: (message: string) => sonner.warning(message, { closeButton: true }),
};

/** The toast region and its close buttons are named in the page's language (sonner's are English). */
export function Toaster() {
  const { t } = useTranslation();
  return (
    <SonnerToaster
      position="top-center"
      theme="dark"
      richColors
      closeButton
      containerAriaLabel={t('common.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.close') }}
    />
  );
}
