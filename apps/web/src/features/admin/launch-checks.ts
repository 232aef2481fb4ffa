import { type CatalogExchange, FEE_CHECK_MAX_AGE_DAYS, signupProblems } from '@elex/contract';

/** What an operator must still fix in the catalog before traders can rely on it (docs/exchanges.md). */
export interface CatalogLaunchChecks {
  /** Still on the seed's placeholder code: we would earn nothing on their sign-ups (production hides them). */
  placeholderCode: string[];
  /** A sign-up link without `{code}`: it may not carry our code at all (production hides it). */
  missingTemplate: string[];
  /** Fees never checked against the exchange's own page. */
  feesUnchecked: string[];
  /** Fees checked, but longer ago than FEE_CHECK_MAX_AGE_DAYS. */
  feesStale: string[];
}

const DAY_MS = 86_400_000;

export function catalogLaunchChecks(
  exchanges: readonly Pick<
    CatalogExchange,
    'name' | 'referralCode' | 'signupUrlTemplate' | 'feesCheckedOn'
  >[],
  now: Date,
): CatalogLaunchChecks {
  // Whole UTC days: a check dated exactly FEE_CHECK_MAX_AGE_DAYS days ago is still current.
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const staleBefore = today - FEE_CHECK_MAX_AGE_DAYS * DAY_MS;
  const checks: CatalogLaunchChecks = {
    placeholderCode: [],
    missingTemplate: [],
    feesUnchecked: [],
    feesStale: [],
  };
  for (const exchange of exchanges) {
    for (const problem of signupProblems(exchange)) checks[problem].push(exchange.name);
    if (exchange.feesCheckedOn === null) checks.feesUnchecked.push(exchange.name);
    else if (Date.parse(`${exchange.feesCheckedOn}T00:00:00Z`) < staleBefore)
      checks.feesStale.push(exchange.name);
  }
  return checks;
}

export const hasLaunchChecks = (checks: CatalogLaunchChecks) =>
  Object.values(checks).some((names) => names.length > 0);
