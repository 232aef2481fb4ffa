import type { TestContext } from '../auth/test-support.js';
import { createPromotionCode, type NewPromotionCodeInput } from './promotions.service.js';

/** A promotion code as an operator would create it in the console (no audit entry: test setup). */
export async function givePromotionCode(
  ctx: Pick<TestContext, 'db' | 'clock'>,
  code: string,
  options: Partial<Omit<NewPromotionCodeInput, 'code'>> = {},
) {
  return ctx.db.transaction((tx) =>
    createPromotionCode(
      tx,
      { code, note: '', validThrough: null, maxUses: null, ...options },
      { userId: null, label: 'test-setup' },
      ctx.clock.now(),
    ),
  );
}
