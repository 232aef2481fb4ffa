import { type AdminTaskDefinition, State, translate } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { envelope, renderRoutes } from '../../test/helpers';
import TasksPage from './tasks-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

describe('a task another operator saved meanwhile', () => {
  it('saves nothing, says why, shows their version; changed again on it, the save goes', async () => {
    const stored: AdminTaskDefinition = {
      id: 'discord',
      group: 'social',
      kind: 'discord',
      points: 50,
      threshold: null,
      link: 'https://discord.gg/elex',
      appLink: null,
      sortOrder: 2,
      enabled: true,
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    const saves: Array<Record<string, unknown>> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
        switch (String(input)) {
          case '/elex/admin/taskDefinitions':
            return envelope({ tasks: [structuredClone(stored)] });
          case '/elex/admin/updateTaskDefinition': {
            saves.push(body);
            if (body.updatedAt !== stored.updatedAt) {
              return envelope(null, State.Refused, translate('en', 'taskEditedMeanwhile'));
            }
            Object.assign(stored, body, { updatedAt: '2026-11-03T00:00:00.000Z' });
            return envelope(stored);
          }
          default:
            return envelope(null);
        }
      }),
    );
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/tasks', element: <TasksPage /> }], '/admin/tasks');
    const form = await screen.findByRole('form', { name: t('admin.tasks.kinds.discord') });
    // Another operator hides the task after this page loaded.
    Object.assign(stored, { enabled: false, updatedAt: '2026-11-02T00:00:00.000Z' });

    const points = within(form).getByLabelText(t('admin.tasks.points'));
    await user.clear(points);
    await user.type(points, '80');
    await user.click(within(form).getByRole('button', { name: t('admin.tasks.save') }));
    expect(await screen.findByText(translate('en', 'taskEditedMeanwhile'))).toBeVisible();
    expect(saves[0]).toMatchObject({ points: 80, enabled: true, updatedAt: '2026-11-01T00:00:00.000Z' });
    expect(stored).toMatchObject({ points: 50, enabled: false });
    // The form now shows their version: the task is hidden.
    await vi.waitFor(() => expect(within(form).getByLabelText(t('admin.tasks.enabled'))).not.toBeChecked());
    const again = within(form).getByLabelText(t('admin.tasks.points'));
    await user.clear(again);
    await user.type(again, '80');
    await user.click(within(form).getByRole('button', { name: t('admin.tasks.save') }));
    expect(await screen.findByText(t('msg:savedSuccessfully'))).toBeInTheDocument();
    expect(saves[1]).toMatchObject({ points: 80, enabled: false, updatedAt: '2026-11-02T00:00:00.000Z' });
  });
});
