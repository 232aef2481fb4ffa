import { DECIMALS, fromScaled, toScaled } from '@elex/contract';

/** The mean of the maker and the taker fee, exact (one more decimal than the fees carry). */
export function meanFee(exchange: { limitPrice: string; marketPrice: string }): string {
  const sum =
    toScaled(exchange.limitPrice, DECIMALS.feePercent) + toScaled(exchange.marketPrice, DECIMALS.feePercent);
  return fromScaled((sum * 10n) / 2n, DECIMALS.feePercent + 1);
}
