import { CALCULATOR, CASHBACK, WITHDRAWAL } from '@elex/contract';

/** The business constants the service pages quote (contract values, never retyped in the text). */
export const SERVICE_VALUES = {
  discountPercent: CASHBACK.newUserDiscountPercent,
  discountDays: CASHBACK.newUserDiscountDays,
  speedUpWeeks: CASHBACK.speedUpWeeks,
  segmentHours: CASHBACK.dataSegmentHours,
  finalHours: CASHBACK.dataFinalHours,
  accruableYears: CASHBACK.accruableYears,
  recordsYears: CASHBACK.recordsKeptYears,
  minimum: WITHDRAWAL.minimumUsdt,
  reviewHours: WITHDRAWAL.reviewHours,
  lockHours: WITHDRAWAL.lockAfterPasswordChangeHours,
  rankingDays: CASHBACK.rankingWindowDays,
  resultDays: CALCULATOR.resultDays,
} as const;
