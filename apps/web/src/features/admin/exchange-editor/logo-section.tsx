import { type CatalogExchange, LOGO_UPLOAD } from '@elex/contract';
import { Upload } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-client';
import { toast } from '../../../shared/ui/toast';
import { uploadLogo } from '../api/upload-logo';
import { formatBytes } from '../format';

/** The partner's logo: the current one and a file picker that uploads a new one at once. */
export function LogoSection({ exchange, onSaved }: { exchange: CatalogExchange; onSaved(): Promise<void> }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    // The server checks again, by content; this only spares a pointless upload.
    if (file.size > LOGO_UPLOAD.maxBytes) {
      setProblem(t('msg:logoTooLarge'));
      return;
    }
    setBusy(true);
    try {
      await uploadLogo(exchange, file);
      toast.success(t('admin.catalog.logoSaved', { name: file.name, size: formatBytes(file.size) }));
      await onSaved();
    } catch (failure) {
      // The API client showed the reason. A refusal may be another operator's change since the page
      // loaded (logoEditedMeanwhile): nothing was stored; the page reloads to show their version (their
      // logo, perhaps), and the operator picks the file again only if it is still meant.
      if (failure instanceof ApiError && failure.kind === 'refused') await onSaved();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card admin-section" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>{t('admin.catalog.logo')}</h2>
      <div className="admin-logo-row">
        <img
          className="admin-logo-preview"
          src={exchange.logo}
          alt={t('admin.catalog.currentLogo')}
          width={64}
          height={64}
        />
        <div>
          <label htmlFor={inputId} className={`button button-ghost${busy ? ' disabled' : ''}`}>
            <Upload size={16} aria-hidden="true" />
            {busy ? t('admin.catalog.uploading') : t('admin.catalog.uploadLogo')}
          </label>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            accept={LOGO_UPLOAD.accept}
            disabled={busy}
            onChange={choose}
          />
          <p className="field-hint">{t('admin.catalog.logoRules')}</p>
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
