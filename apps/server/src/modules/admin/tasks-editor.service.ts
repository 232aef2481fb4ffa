import { type AdminTaskDefinition, DECIMALS, fromScaled, State } from '@elex/contract';
import { refuseUnlessVersion } from '../../db/row-version.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import {
  listTaskDefinitions,
  lockTaskDefinition,
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

/**
 * /elex/admin/updateTaskDefinition: the form sends every field, so it saves only if the task is still
 * the version the form was loaded with (`expectedUpdatedAt`, checked under the task's row lock):
 * otherwise another operator saved it since, and this save would silently set their fields back.
 * Refused with `taskEditedMeanwhile`, nothing written.
 */
export async function saveTaskDefinition(
  deps: AppDeps,
  context: ActionContext,
  id: string,
  update: TaskDefinitionUpdate,
  expectedUpdatedAt: string,
): Promise<AdminTaskDefinition> {
  return deps.db.transaction(async (tx) => {
    const before = await lockTaskDefinition(tx, id);
    if (!before) throw new AppError(State.NotFound, 'notFound');
    refuseUnlessVersion(before, expectedUpdatedAt, 'taskEditedMeanwhile');
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
