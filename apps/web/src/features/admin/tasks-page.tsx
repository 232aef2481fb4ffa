import { type AdminTaskDefinition, UpdateTaskDefinitionRequestSchema } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../shared/api/api-client';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { taskDefinitionsQuery, updateTaskDefinition, useTaskDefinitions } from './api/task-definitions';
import { fieldError } from './components/field-error';
import { LoadError } from './components/load-error';
import { formatTime } from './format';

type TaskInput = z.input<typeof UpdateTaskDefinitionRequestSchema>;
type TaskOutput = z.output<typeof UpdateTaskDefinitionRequestSchema>;

function TaskForm({ task }: { task: AdminTaskDefinition }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<TaskInput, unknown, TaskOutput>({
    resolver: zodResolver(UpdateTaskDefinitionRequestSchema),
    mode: 'onTouched',
    values: useMemo(
      () => ({
        id: task.id,
        updatedAt: task.updatedAt,
        points: task.points,
        threshold: task.threshold ?? '',
        link: task.link ?? '',
        appLink: task.appLink ?? '',
        sortOrder: task.sortOrder,
        enabled: task.enabled,
      }),
      [task],
    ),
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  const id = (name: string) => `task-${task.id}-${name}`;
  return (
    <form
      className="card admin-task"
      noValidate
      aria-labelledby={id('title')}
      onSubmit={form.handleSubmit(async (values) => {
        try {
          await updateTaskDefinition(values);
          toast.success(t('msg:savedSuccessfully'));
          await client.invalidateQueries({ queryKey: taskDefinitionsQuery.queryKey });
        } catch (failure) {
          // The API client showed the reason. A refusal may be another operator's save since this page
          // loaded (taskEditedMeanwhile): the list reloads, and the form shows their version to change.
          if (failure instanceof ApiError && failure.kind === 'refused') {
            await client.invalidateQueries({ queryKey: taskDefinitionsQuery.queryKey });
          }
        }
      })}
    >
      <header className="admin-task-head">
        <h3 id={id('title')}>{t(`admin.tasks.kinds.${task.kind}`, { defaultValue: task.id })}</h3>
        <span className="muted mono">{task.id}</span>
        <span className="status status-pending">{t(`admin.tasks.groups.${task.group}`)}</span>
      </header>
      <div className="admin-task-grid">
        <Field id={id('points')} label={t('admin.tasks.points')} error={error(errors.points?.message)}>
          <input inputMode="numeric" {...form.register('points')} />
        </Field>
        {task.kind === 'tradingVolume' ? (
          <Field
            id={id('threshold')}
            label={t('admin.tasks.threshold')}
            hint={t('admin.tasks.thresholdHint')}
            error={error(errors.threshold?.message)}
          >
            <input inputMode="decimal" {...form.register('threshold')} />
          </Field>
        ) : null}
        {task.group === 'social' ? (
          <>
            <Field id={id('link')} label={t('admin.tasks.link')} error={error(errors.link?.message)}>
              <input className="mono" {...form.register('link')} />
            </Field>
            <Field id={id('appLink')} label={t('admin.tasks.appLink')} error={error(errors.appLink?.message)}>
              <input className="mono" {...form.register('appLink')} />
            </Field>
          </>
        ) : null}
        <Field
          id={id('sortOrder')}
          label={t('admin.tasks.sortOrder')}
          error={error(errors.sortOrder?.message)}
        >
          <input inputMode="numeric" {...form.register('sortOrder')} />
        </Field>
        <label className="checkbox-field admin-task-enabled">
          <input type="checkbox" {...form.register('enabled')} />
          <span>{t('admin.tasks.enabled')}</span>
        </label>
      </div>
      <div className="admin-actions">
        <button type="submit" className="button button-primary" disabled={isSubmitting || !isDirty}>
          {t('admin.tasks.save')}
        </button>
        <span className="muted">{t('admin.tasks.updatedAt', { time: formatTime(task.updatedAt) })}</span>
      </div>
    </form>
  );
}

/** /admin/tasks: points, volume thresholds, links, order and visibility of the points tasks. */
export default function TasksPage() {
  const { t } = useTranslation();
  const tasks = useTaskDefinitions();
  return (
    <Page title={t('admin.tasks.title')} intro={t('admin.tasks.intro')} wide>
      {tasks.isError && !tasks.data ? <LoadError onRetry={() => void tasks.refetch()} /> : null}
      {!tasks.data ? (
        tasks.isError ? null : (
          <Skeleton lines={6} />
        )
      ) : (
        <div className="admin-task-list">
          {tasks.data.tasks.map((task) => (
            <TaskForm key={task.id} task={task} />
          ))}
        </div>
      )}
    </Page>
  );
}
