import type { TaskDetail } from '@elex/contract';
import { BarChart3, Link2, MessagesSquare } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatUsdt } from '../../../shared/exchanges/format';
import { TaskCard } from './task-card';

const GROUP_ICONS = { social: MessagesSquare, binding: Link2, trade: BarChart3 } as const;

/** The three task groups of the spec: social, binding, trade. */
export function TaskGroups({ detail }: { detail: TaskDetail }) {
  const { t } = useTranslation();
  return (
    <div className="task-groups">
      {detail.groups.map(({ group, tasks }) => {
        const Icon = GROUP_ICONS[group];
        return (
          <section key={group} className="task-group" aria-labelledby={`task-group-${group}`}>
            <h3 id={`task-group-${group}`}>
              <Icon size={18} aria-hidden="true" className="accent" /> {t(`tasks.groups.${group}`)}
            </h3>
            {group === 'trade' ? (
              <p className="muted task-group-note">
                {t('tasks.volumeNote', { volume: formatUsdt(detail.tradingVolume) })}
              </p>
            ) : null}
            {tasks.length === 0 ? (
              <p className="muted">{t('tasks.noneInGroup')}</p>
            ) : (
              <ul className="task-list">
                {tasks.map((task) => (
                  <TaskCard key={task.taskId} task={task} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
