import { type Dashboard, type DashboardDay, DECIMALS, fromScaled } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import {
  countBindingsByDay,
  countMembersAndBindings,
  countPageViews,
  countSignUpsByDay,
  sumLinesByDayAndKind,
  sumOpenHolds,
} from '../../read-models/console-reports.js';
import { listPartnersNotReady } from '../exchanges/exchanges.service.js';

/**
 * /elex/admin/dashboard: the last `days` UTC days (today included). Money comes from the ledger, so
 * it agrees with every balance: accrued = rebate journals into UID cashback accounts, paid = lines
 * into `payout` (approved withdrawals), pending = funds still on hold for withdrawals under review.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE_VIEW_ROUTES = 15;
const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

export async function getDashboard(deps: AppDeps, days: number): Promise<Dashboard> {
  const now = deps.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  const to = new Date(today + DAY_MS);
  const period = { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
  const [signUps, bindings, accrued, paid, holds, counts, pageViews, partnersNotReady] = await Promise.all([
    countSignUpsByDay(deps.db, from, to),
    countBindingsByDay(deps.db, from, to),
    sumLinesByDayAndKind(deps.db, { accountKind: 'cashback', journalKinds: ['rebate'], ...period }),
    sumLinesByDayAndKind(deps.db, { accountKind: 'payout', ...period }),
    sumOpenHolds(deps.db),
    countMembersAndBindings(deps.db),
    countPageViews(deps.db, from, to, PAGE_VIEW_ROUTES),
    listPartnersNotReady(deps.db),
  ]);
  const series: DashboardDay[] = [];
  let totalAccrued = 0n;
  let totalPaid = 0n;
  for (let time = from.getTime(); time < to.getTime(); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    const dayAccrued = accrued.get(day) ?? 0n;
    const dayPaid = paid.get(day) ?? 0n;
    totalAccrued += dayAccrued;
    totalPaid += dayPaid;
    series.push({
      day,
      signUps: signUps.get(day) ?? 0,
      boundUids: bindings.get(day) ?? 0,
      cashbackAccrued: usdt(dayAccrued),
      cashbackPaid: usdt(dayPaid),
    });
  }
  return {
    days: series,
    totals: {
      members: counts.members,
      liveBindings: counts.liveBindings,
      signUps: series.reduce((sum, day) => sum + day.signUps, 0),
      boundUids: series.reduce((sum, day) => sum + day.boundUids, 0),
      cashbackAccrued: usdt(totalAccrued),
      cashbackPaid: usdt(totalPaid),
    },
    pendingWithdrawals: { count: holds.count, amount: usdt(holds.amountMicro) },
    pageViews,
    partnersNotReady,
  };
}
