import type { ImportResult } from '@elex/contract';
import { CircleCheck, CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../components/scroll-region';
import { formatAmount } from '../format';

/**
 * Lines of a file by number: what is wrong with each (a refused file) or what to know of it. On a
 * phone the field goes above its reason instead of a column of its own, so the reason has the width to
 * be read without scrolling sideways (admin.css, `.admin-lines`). The server answers the first ones;
 * `more` says how many it left out.
 */
function LinesTable({
  label,
  items,
  more,
}: {
  label: string;
  items: ImportResult['problems'];
  more: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ScrollRegion label={label}>
        <table className="data-table admin-lines">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                {t('admin.imports.line')}
              </th>
              <th scope="col" className="admin-lines-field">
                {t('admin.imports.field')}
              </th>
              <th scope="col">{t('admin.imports.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.line}|${item.field}|${item.reason}`}>
                <td className="numeric">{item.line}</td>
                <td className="mono admin-lines-field">{item.field}</td>
                <td className="wrap">
                  <span className="mono status-reason admin-lines-field-above">{item.field}</span>
                  {item.reason}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {more ? <p className="status-reason">{more}</p> : null}
    </>
  );
}

/**
 * What the server made of an upload: the counts of an import (with the lines it names, e.g. a known
 * UID stated with another registration time), or every bad line of a refused file.
 */
export function ImportResultPanel({ result, fileName }: { result: ImportResult; fileName: string }) {
  const { t } = useTranslation();
  if (result.status === 'succeeded') {
    const notices = t('msg:importRegistrationsDiffer', { count: result.noticeCount });
    const moreNotices = result.noticeCount - result.notices.length;
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
        {result.noticeCount > 0 ? (
          <>
            <p>{notices}</p>
            <LinesTable
              label={notices}
              items={result.notices}
              more={moreNotices > 0 ? t('msg:importMoreNotices', { count: moreNotices }) : null}
            />
          </>
        ) : null}
      </div>
    );
  }
  const moreProblems = result.problemCount - result.problems.length;
  return (
    <div className="card admin-result admin-result-bad" role="alert">
      <h3>
        <CircleX size={20} aria-hidden="true" />
        {t('msg:importRejected', { lines: result.problemLines })}
      </h3>
      <LinesTable
        label={t('admin.imports.problems')}
        items={result.problems}
        more={moreProblems > 0 ? t('msg:importMoreProblems', { count: moreProblems }) : null}
      />
    </div>
  );
}
