import type { PromotionCode, PromotionCodePage } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import {
  changePromotionCode,
  createPromotionCode,
  listPromotionCodes,
  type NewPromotionCodeInput,
  type PromotionCodeChange,
  toPromotionCode,
} from '../promotions/promotions.service.js';
import { recordAudit } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';

/** The promotion codes page: the promotions module's own services, each change audited in its transaction. */

/** /elex/admin/promotionCodes */
export function getPromotionCodes(
  deps: AppDeps,
  page: { page: number; pageSize: number },
): Promise<PromotionCodePage> {
  return listPromotionCodes(deps.db, page, deps.clock.now());
}

/** /elex/admin/createPromotionCode */
export async function addPromotionCode(
  deps: AppDeps,
  context: ActionContext,
  input: NewPromotionCodeInput,
): Promise<PromotionCode> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const row = await createPromotionCode(tx, input, context.actor, now);
    const after = toPromotionCode(row, now);
    await recordAudit(tx, {
      actor: context.actor,
      action: 'promotion.create',
      target: `promotion:${row.id}`,
      after,
      at: now,
      requestId: context.requestId,
    });
    return after;
  });
}

/**
 * /elex/admin/updatePromotionCode: saved only if the code is still the version the operator's list
 * showed (`expectedUpdatedAt`), else refused with `promotionCodeEditedMeanwhile`, nothing written.
 */
export async function editPromotionCode(
  deps: AppDeps,
  context: ActionContext,
  id: number,
  change: PromotionCodeChange,
  expectedUpdatedAt: string,
): Promise<PromotionCode> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const { before, after } = await changePromotionCode(tx, id, change, expectedUpdatedAt, now);
    const answer = toPromotionCode(after, now);
    await recordAudit(tx, {
      actor: context.actor,
      action: 'promotion.update',
      target: `promotion:${id}`,
      before: toPromotionCode(before, now),
      after: answer,
      at: now,
      requestId: context.requestId,
    });
    return answer;
  });
}
