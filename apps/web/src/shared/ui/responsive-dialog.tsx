import { LAYOUT } from '@elex/contract';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Drawer } from 'vaul';
import { useIsWide } from '../hooks/use-is-wide';

/** The fields a dialog opens on: the first one a person types into or picks from. */
const FIRST_FIELD =
  'input:not([type="hidden"]):not([disabled]):not([readonly]), select:not([disabled]), textarea:not([disabled]):not([readonly])';

export interface ResponsiveDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Desktop width; spec section 9: modals 80% wide up to 400 px, the language dialog 30%. */
  width?: string;
  /** Only the operator console's wide forms and tables set this; the product's dialogs keep 400 px. */
  maxWidthPx?: number;
  /**
   * Where focus goes on close when the opener has left the page meanwhile (a dialog opened from another
   * dialog's button, or from a form remounted after its submit): without it focus fell to the body.
   */
  fallbackFocus?(): HTMLElement | null;
}

/**
 * A dialog on desktop and a bottom drawer on mobile (spec: code and language dialogs). Both libraries
 * keep focus inside while open; they return focus only to their own trigger element, and our dialogs
 * open from buttons and flows elsewhere, so the opener is remembered here and focused again on close.
 */
export function ResponsiveDialog(props: ResponsiveDialogProps) {
  const isWide = useIsWide();
  const { t } = useTranslation();
  const { open, onOpenChange, title, description, children } = props;
  const opener = useRef<HTMLElement | null>(null);
  /**
   * Remembers the opener, then puts focus on the dialog's first field when it has one: the libraries
   * focus the first focusable element, which on desktop is the close button, so typed code digits
   * went nowhere (issue 15).
   */
  const onOpenAutoFocus = (event: Event) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const content = event.target instanceof HTMLElement ? event.target : null;
    const field = content?.querySelector<HTMLElement>(FIRST_FIELD);
    if (!field) return;
    event.preventDefault();
    field.focus();
  };
  const returnFocus = (event: Event) => {
    event.preventDefault();
    const gone = !opener.current?.isConnected || opener.current === document.body;
    const target = gone ? props.fallbackFocus?.() : opener.current;
    target?.focus();
  };

  // vaul's drawer reads the page's scroll position and layout when it mounts, even closed (30 ms on a
  // slow phone, inside the render of the page that holds it): it mounts at its first opening and
  // stays, so it still animates when it closes.
  const [drawerWanted, setDrawerWanted] = useState(open);
  if (open && !drawerWanted) setDrawerWanted(true);

  if (!isWide) {
    if (!drawerWanted) return null;
    return (
      <Drawer.Root open={open} onOpenChange={onOpenChange} autoFocus>
        <Drawer.Portal>
          <Drawer.Overlay className="overlay" />
          <Drawer.Content
            className="drawer"
            style={{ minHeight: LAYOUT.drawerSize }}
            aria-describedby={undefined}
            onOpenAutoFocus={onOpenAutoFocus}
            onCloseAutoFocus={returnFocus}
          >
            <div className="drawer-handle" aria-hidden="true" />
            <Drawer.Title className="dialog-title">{title}</Drawer.Title>
            {description ? (
              <Drawer.Description className="dialog-description">{description}</Drawer.Description>
            ) : null}
            {children}
          </Drawer.Content>
        </Drawer.Portal>
      </Drawer.Root>
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className="dialog"
          style={{
            width: props.width ?? LAYOUT.modalWidth,
            maxWidth: props.maxWidthPx ?? LAYOUT.modalMaxWidthPx,
          }}
          aria-describedby={undefined}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={returnFocus}
        >
          <div className="dialog-header">
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label={t('common.close')}>
              <X size={18} aria-hidden="true" />
            </Dialog.Close>
          </div>
          {description ? (
            <Dialog.Description className="dialog-description">{description}</Dialog.Description>
          ) : null}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
