import type { CatalogExchange, ExchangeFieldsSchema, ReplaceVipTiersRequestSchema } from '@elex/contract';
import type { z } from 'zod';

export type FieldsInput = z.input<typeof ExchangeFieldsSchema>;
export type FieldsOutput = z.output<typeof ExchangeFieldsSchema>;
export type TiersInput = z.input<typeof ReplaceVipTiersRequestSchema>;
export type TiersOutput = z.output<typeof ReplaceVipTiersRequestSchema>;

/** A catalog entry as the values of the editor's fields form (an unchecked date as an empty input). */
export function fieldsOf(exchange: CatalogExchange): FieldsInput {
  return {
    name: exchange.name,
    abbreviation: exchange.abbreviation,
    logo: exchange.logo,
    position: exchange.position,
    score: exchange.score,
    cashRate: exchange.cashRate,
    speedUpCashRate: exchange.speedUpCashRate,
    limitPrice: exchange.limitPrice,
    marketPrice: exchange.marketPrice,
    vipRule: exchange.vipRule,
    marks: exchange.marks,
    signupUrlTemplate: exchange.signupUrlTemplate,
    referralCode: exchange.referralCode,
    newUserDiscountPercent: exchange.newUserDiscountPercent,
    newUserDiscountDays: exchange.newUserDiscountDays,
    isRecommended: exchange.isRecommended,
    isRacing: exchange.isRacing,
    feesCheckedOn: exchange.feesCheckedOn ?? '',
  };
}

/**
 * A catalog entry's VIP table as the values of the tiers form (missing figures as empty inputs), with
 * the version it was loaded at: the server refuses the save if someone saved the partner since.
 */
export function tiersOf(exchange: CatalogExchange): TiersInput {
  return {
    platId: exchange.platId,
    updatedAt: exchange.updatedAt,
    tiers: exchange.vipTiers.map((tier) => ({
      ...tier,
      volume30d: tier.volume30d ?? '',
      assetAmount: tier.assetAmount ?? '',
      assetSymbol: tier.assetSymbol ?? '',
    })),
  };
}
