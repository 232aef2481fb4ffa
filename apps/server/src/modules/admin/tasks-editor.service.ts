import { type AdminTaskDefinition, DECIMALS, fromScaled, State } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import {
  listTaskDefinitions,
  type TaskDefinitionRow,
  type TaskDefinitionUpdate,
  updateTaskDefinition,
} from '../tasks/tasks.service.js';
import { recordAudit } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';

/** The points tasks editor: the tasks module's own services, each change audited in its transaction. */

function toDefinition(row: TaskDefinitionRow): AdminTaskDefinition {
  return {
    id: row.id,
    group: row.group,
    kind: row.kind,
    points: row.points,
    threshold: row.thresholdMicro === null ? null : fromScaled(row.thresholdMicro, DECIMALS.usdt),
    link: row.link,
    appLink: row.appLink,
    sortOrder: row.sortOrder,
    enabled: row.enabled,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** /elex/admin/taskDefinitions */
export async function getTaskDefinitions(deps: AppDeps): Promise<{ tasks: AdminTaskDefinition[] }> {
  return { tasks: (await listTaskDefinitions(deps.db)).map(toDefinition) };
}

/** /elex/admin/updateTaskDefinition */
export async function saveTaskDefinition(
  deps: AppDeps,
  context: ActionContext,
  id: string,
  update: TaskDefinitionUpdate,
): Promise<AdminTaskDefinition> {
  return deps.db.transaction(async (tx) => {
    const before = (await listTaskDefinitions(tx)).find((row) => row.id === id);
    if (!before) throw new AppError(State.NotFound, 'notFound');
    // A threshold only exists for trade tasks: the editor sends none for the others.
    const { threshold, ...rest } = update;
    const change: TaskDefinitionUpdate =
      before.kind === 'tradingVolume' && threshold ? { ...rest, threshold } : rest;
    const after = toDefinition(await updateTaskDefinition({ ...deps, db: tx }, id, change));
    await recordAudit(tx, {
      actor: context.actor,
      action: 'task.update',
      target: `task:${id}`,
      before: toDefinition(before),
      after,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return after;
  });
}
