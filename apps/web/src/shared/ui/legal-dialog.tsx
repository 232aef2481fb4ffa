import { useTranslation } from 'react-i18next';
import { ResponsiveDialog } from './responsive-dialog';
import './legal-dialog.css';

export type LegalDocument = 'terms' | 'privacy';

interface Section {
  heading: string;
  body: string;
}

/** The terms of use or privacy policy in a modal with a confirm button (spec: register, footer). */
export function LegalDialog({
  document,
  onClose,
  onConfirm,
}: {
  document: LegalDocument | null;
  onClose(): void;
  onConfirm?(): void;
}) {
  const { t } = useTranslation();
  const sections = document ? (t(`legal.${document}.sections`, { returnObjects: true }) as Section[]) : [];
  return (
    <ResponsiveDialog
      open={document !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={document ? t(`legal.${document}.title`) : ''}
    >
      <div className="legal-text">
        <p className="muted">{document ? t(`legal.${document}.updated`) : null}</p>
        {sections.map((section) => (
          <section key={section.heading}>
            <h3>{section.heading}</h3>
            <p>{section.body}</p>
          </section>
        ))}
      </div>
      <button
        type="button"
        className="button button-primary button-block"
        onClick={() => {
          onConfirm?.();
          onClose();
        }}
      >
        {t('legal.confirm')}
      </button>
    </ResponsiveDialog>
  );
}
