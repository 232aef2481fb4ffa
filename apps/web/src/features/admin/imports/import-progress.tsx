import { useTranslation } from 'react-i18next';
import type { UploadStage } from './use-import-upload';

/** The upload's progress bar (a percentage while sending, indeterminate while the server processes). */
export function ImportProgress({ stage }: { stage: UploadStage }) {
  const { t } = useTranslation();
  if (stage.kind !== 'uploading' && stage.kind !== 'processing') return null;
  const percent =
    stage.kind === 'uploading' && stage.total > 0 ? Math.round((stage.sent / stage.total) * 100) : 0;
  return (
    <div className="admin-progress" aria-live="polite">
      <label htmlFor="import-progress">
        {stage.kind === 'uploading'
          ? t('admin.imports.uploading', { percent })
          : t('admin.imports.processing')}
      </label>
      {stage.kind === 'uploading' ? (
        <progress id="import-progress" max={100} value={percent} />
      ) : (
        <progress id="import-progress" />
      )}
    </div>
  );
}
