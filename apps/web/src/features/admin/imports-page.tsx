import { useTranslation } from 'react-i18next';
import { Page } from '../../shared/ui/page';
import { ImportRuns } from './imports/import-runs';
import { ImportUploadForm } from './imports/import-upload-form';
import { SyncRuns } from './imports/sync-runs';

/** /admin/imports: upload a roster or figures CSV (checked like the commands), the import and sync history. */
export default function ImportsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('admin.imports.title')} intro={t('admin.imports.intro')} wide>
      <ImportUploadForm />
      <ImportRuns />
      <SyncRuns />
    </Page>
  );
}
