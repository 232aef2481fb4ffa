import { IMPORT_PROBLEMS_KEPT, type ImportResult } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../../test/helpers';
import { ImportResultPanel } from './import-result-panel';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const base: ImportResult = {
  runId: 9,
  status: 'rejected',
  rows: 5_000,
  inserted: 0,
  duplicates: 0,
  settledCompleted: 0,
  settledFailed: 0,
  credited: '0.000000',
  problems: [],
  problemCount: 0,
  problemLines: 0,
  notices: [],
  noticeCount: 0,
};

/** The server answers the first IMPORT_PROBLEMS_KEPT problems of a file and counts them all (issue 14). */
describe('the answer to an upload of a file with many bad lines', () => {
  it('says how many lines were bad in all and how many problems are not listed', () => {
    const problems = Array.from({ length: IMPORT_PROBLEMS_KEPT }, (_, n) => ({
      line: n + 3,
      field: 'row',
      reason: 'duplicate row: the same UID and period are on line 2',
    }));
    renderAt(
      <ImportResultPanel
        result={{ ...base, problems, problemCount: 4_998, problemLines: 4_998 }}
        fileName="many.csv"
      />,
    );
    const panel = screen.getByRole('alert');
    expect(within(panel).getByRole('heading')).toHaveTextContent(t('msg:importRejected', { lines: 4_998 }));
    const table = within(panel).getByRole('region', { name: t('admin.imports.problems') });
    expect(within(table).getAllByRole('row')).toHaveLength(IMPORT_PROBLEMS_KEPT + 1);
    expect(
      within(panel).getByText(t('msg:importMoreProblems', { count: 4_998 - IMPORT_PROBLEMS_KEPT })),
    ).toBeVisible();
    expect(t('msg:importMoreProblems', { count: 4_798 })).toBe('… and 4798 more problem(s).');
  });

  it("counts an imported roster's notices in all and says how many are not listed", () => {
    const notice = { line: 3, field: 'registered_at', reason: 'the stored time stays' };
    renderAt(
      <ImportResultPanel
        result={{ ...base, status: 'succeeded', rows: 900, notices: [notice], noticeCount: 650 }}
        fileName="roster.csv"
      />,
    );
    const panel = screen.getByRole('status');
    expect(within(panel).getByText(t('msg:importRegistrationsDiffer', { count: 650 }))).toBeVisible();
    expect(within(panel).getByText(t('msg:importMoreNotices', { count: 649 }))).toBeVisible();
    expect(within(panel).queryByText(/more problem/)).toBeNull();
  });
});
