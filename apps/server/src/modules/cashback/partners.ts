import { DECIMALS, toScaled } from '@elex/contract';
import { systemClock } from '../../lib/clock.js';
import { type CatalogDeps, getExchangeDictionary } from '../exchanges/exchanges.service.js';

/** What the cashback engine needs to know about a partner, from the exchanges module's catalog. */
export interface Partner {
  platId: number;
  name: string;
  abbreviation: string;
  /** Basis points of the fee. */
  cashRateBps: number;
  speedUpCashRateBps: number;
  /** No longer a partner (issue 12): no new bindings, no sync; its UIDs keep their balances. */
  retired: boolean;
}

/**
 * The partners by platId, from the catalog cache (at most 30 s old). Read it before opening a
 * transaction: on PGlite a query outside the open transaction would wait for it to end.
 * The cache's age is real time, not the business clock: the demo seed replays 90 days in seconds,
 * and a clock moved by a day must not reload the catalog on every import.
 */
export async function loadPartners(deps: CatalogDeps): Promise<Map<number, Partner>> {
  const dictionary = await getExchangeDictionary({ db: deps.db, clock: systemClock });
  return new Map(
    dictionary.exchangeList.map((entry) => [
      entry.id,
      {
        platId: entry.id,
        name: entry.name,
        abbreviation: entry.Abbreviation,
        cashRateBps: Number(toScaled(entry.cashRate, DECIMALS.cashPercent)),
        speedUpCashRateBps: Number(toScaled(entry.speedUpCashRate, DECIMALS.cashPercent)),
        retired: entry.retired === true,
      },
    ]),
  );
}

/**
 * An exchange by catalog id, name or abbreviation (any letter case): '4', 'Bitget', 'bg'.
 * Undefined when none matches.
 */
export async function resolvePlatId(deps: CatalogDeps, nameOrId: string): Promise<number | undefined> {
  const wanted = nameOrId.trim().toLowerCase();
  if (!wanted) return undefined;
  const partners = await loadPartners(deps);
  if (/^\d{1,10}$/.test(wanted)) return partners.has(Number(wanted)) ? Number(wanted) : undefined;
  for (const partner of partners.values()) {
    if (partner.name.toLowerCase() === wanted || partner.abbreviation.toLowerCase() === wanted) {
      return partner.platId;
    }
  }
  return undefined;
}
