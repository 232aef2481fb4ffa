import { Toaster as SonnerToaster, toast as sonner } from 'sonner';

/** Toasts are closable (spec section 8: the server's message shows as a closable toast). */
export const toast = {
  error: (message: string) => sonner.error(message, { closeButton: true }),
  success: (message: string) => sonner.success(message, { closeButton: true }),
  warning: (message: string) => sonner.warning(message, { closeButton: true }),
};

export function Toaster() {
  return <SonnerToaster position="top-center" theme="dark" richColors closeButton />;
}
