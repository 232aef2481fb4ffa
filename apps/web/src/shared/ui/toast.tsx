import { lazy, Suspense } from 'react';
import { afterFirstPaint } from '../after-first-paint';

type Sonner = typeof import('sonner').toast;

/**
 * sonner loads after the first paint (issue 14): a toast asked for before it arrives shows once it
 * has, in the order asked (one shared promise), and a Toaster mounted later still shows the toasts that
 * are active.
 */
let sonnerLoading: Promise<Sonner> | undefined;
function withSonner(show: (sonner: Sonner) => void) {
  wantRegion();
  sonnerLoading ??= import('sonner').then((module) => module.toast);
  void sonnerLoading.then(show);
}

/** The error toasts still on screen: a success that follows makes them stale. */
const openErrors = new Set<string | number>();

/**
 * Toasts are closable (spec section 8: the server's message shows as a closable toast). A description
 * adds a second line: the reason under 'Password reset failed', what follows from a success. A success
 * clears the errors still shown before it (issue 15: a stale "Invalid verification code" stayed stacked
 * beside "Welcome").
 */
export const toast = {
  error: (message: string, description?: string) =>
    withSonner((sonner) => {
      const id = sonner.error(message, {
        closeButton: true,
        description,
        onDismiss: () => openErrors.delete(id),
        onAutoClose: () => openErrors.delete(id),
      });
      openErrors.add(id);
    }),
  success: (message: string, description?: string) =>
    withSonner((sonner) => {
      for (const id of openErrors) sonner.dismiss(id);
      openErrors.clear();
      sonner.success(message, { closeButton: true, description });
    }),
  warning: (message: string) => withSonner((sonner) => sonner.warning(message, { closeButton: true })),
  /** Calm news, neither success nor trouble (a code mailed moments ago is still to be used). */
  info: (message: string) => withSonner((sonner) => sonner.info(message, { closeButton: true })),
};

/** The region's chunk loads at the first toast or once the first page has painted, whichever is first. */
let wantRegion: () => void = () => undefined;
const isRegionWanted = new Promise<void>((resolve) => {
  wantRegion = resolve;
});
afterFirstPaint(() => wantRegion());
const SonnerRegion = lazy(() => isRegionWanted.then(() => import('./toaster')));

/** The toast region (toaster.tsx), its own chunk: nothing shows in it before the first toast. */
export function Toaster() {
  return (
    <Suspense fallback={null}>
      <SonnerRegion />
    </Suspense>
  );
}
