import type { ImportResult } from '@elex/contract';
import { CircleCheck, CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../components/scroll-region';
import { formatAmount } from '../format';

/** What the server made of an upload: the counts of an import, or every bad line of a refused file. */
export function ImportResultPanel({ result, fileName }: { result: ImportResult; fileName: string }) {
  const { t } = useTranslation();
  if (result.status === 'succeeded') {
    return (
      <div className="card admin-result admin-result-ok" role="status">
        <h3>
          <CircleCheck size={20} aria-hidden="true" />
          {t('admin.imports.succeeded', { fileName })}
        </h3>
        <p>
          {t('admin.imports.succeededDetail', {
            rows: result.rows,
            inserted: result.inserted,
            duplicates: result.duplicates,
            completed: result.settledCompleted,
            failed: result.settledFailed,
            credited: formatAmount(result.credited),
          })}
        </p>
      </div>
    );
  }
  const lines = new Set(result.problems.map((problem) => problem.line)).size;
  return (
    <div className="card admin-result admin-result-bad" role="alert">
      <h3>
        <CircleX size={20} aria-hidden="true" />
        {t('msg:importRejected', { lines })}
      </h3>
      <ScrollRegion label={t('admin.imports.problems')}>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                {t('admin.imports.line')}
              </th>
              <th scope="col">{t('admin.imports.field')}</th>
              <th scope="col">{t('admin.imports.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {result.problems.map((problem) => (
              <tr key={`${problem.line}|${problem.field}|${problem.reason}`}>
                <td className="numeric">{problem.line}</td>
                <td className="mono">{problem.field}</td>
                <td className="wrap">{problem.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}
