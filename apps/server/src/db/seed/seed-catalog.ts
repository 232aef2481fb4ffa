import { CASHBACK, DECIMALS, toScaled } from '@elex/contract';
import {
  countExchanges,
  insertActivityRows,
  insertExchangeUnlessPresent,
  type NewActivity,
  replaceVipTierRows,
} from '../../modules/exchanges/exchanges.repository.js';
import { invalidateCatalogCache } from '../../modules/exchanges/exchanges.service.js';
import type { Database } from '../client.js';
import { PARTNER_CATALOG, type SeedExchange, TAG_ICONS } from './partner-catalog.js';

const toPpm = (percent: string) => Number(toScaled(percent, DECIMALS.feePercent));
const toBps = (percent: string) => Number(toScaled(percent, DECIMALS.cashPercent));

function toExchangeRow(exchange: SeedExchange, position: number) {
  return {
    id: exchange.id,
    name: exchange.name,
    abbreviation: exchange.abbreviation,
    logo: `/logos/${exchange.abbreviation.toLowerCase()}.svg`,
    position,
    scoreTenths: Number(toScaled(exchange.score, 1)),
    cashRateBps: toBps(exchange.cashRate),
    speedUpCashRateBps: toBps(exchange.speedUpCashRate),
    makerFeePpm: toPpm(exchange.maker),
    takerFeePpm: toPpm(exchange.taker),
    vipRule: exchange.vipRule,
    marks: exchange.tags.map((tag) => ({ tag, iconUrl: TAG_ICONS[tag] ?? '' })),
    signupUrlTemplate: exchange.signupUrlTemplate,
    referralCode: exchange.referralCode,
    newUserDiscountPercent: CASHBACK.newUserDiscountPercent,
    newUserDiscountDays: CASHBACK.newUserDiscountDays,
    isRecommended: exchange.isRecommended,
    isRacing: exchange.isRacing,
    feesCheckedOn: exchange.feesCheckedOn,
  };
}

/**
 * Seeds the partner catalog on first start and does nothing afterwards: once any exchange exists the
 * catalog belongs to the operators, and a restart must not undo their edits or bring back what they
 * removed. Safe when several instances start at once on one PostgreSQL: an exchange id inserted by
 * another instance is skipped, and its tiers and activities are written only by the instance that
 * inserted it. Answers how many exchanges it inserted.
 */
export async function seedPartnerCatalog(db: Database): Promise<number> {
  if ((await countExchanges(db)) > 0) return 0;
  const inserted = await db.transaction(async (tx) => {
    let count = 0;
    let activityPosition = 0;
    for (const [position, exchange] of PARTNER_CATALOG.entries()) {
      if (!(await insertExchangeUnlessPresent(tx, toExchangeRow(exchange, position + 1)))) continue;
      count += 1;
      await replaceVipTierRows(
        tx,
        exchange.id,
        exchange.vipTiers.map((tier) => ({
          level: tier.level,
          minVolume30dUsdt: tier.volume30d === null ? null : BigInt(tier.volume30d),
          minAssetAmount: tier.asset === null ? null : BigInt(tier.asset.amount),
          minAssetSymbol: tier.asset?.symbol ?? null,
          makerFeePpm: toPpm(tier.maker),
          takerFeePpm: toPpm(tier.taker),
        })),
      );
      const activities: NewActivity[] = exchange.activities.map((activity) => ({
        exchangeId: exchange.id,
        kind: activity.kind,
        titles: activity.titles,
        activityUrl: activity.url,
        position: ++activityPosition,
      }));
      await insertActivityRows(tx, activities);
    }
    return count;
  });
  if (inserted > 0) invalidateCatalogCache();
  return inserted;
}
