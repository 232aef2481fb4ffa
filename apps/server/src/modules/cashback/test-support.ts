import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AppDeps } from '../../deps.js';
import type { CommissionEntry } from '../../integrations/exchanges/types.js';
import { insertUserUnlessTaken } from '../auth/auth.repository.js';
import { createAccountsTestApp, nextEmail, type TestContext } from '../auth/test-support.js';

/** Test helpers for the cashback engine: an app with the partner catalog, fast member factories. */
export type CashbackTestContext = TestContext & { deps: AppDeps };

export async function createCashbackTestApp(overrides: Partial<Config> = {}): Promise<CashbackTestContext> {
  const ctx = await createAccountsTestApp(overrides);
  await seedPartnerCatalog(ctx.db);
  return { ...ctx, deps: ctx.app.deps };
}

/** Seed catalog rates (partner-catalog.ts): Binance 30 % / 40 %, Bitget 50 % / 60 %. */
export const BINANCE = 1;
export const BITGET = 4;

const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
function code(length: number): string {
  return Array.from(randomBytes(length), (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
}

/**
 * A member row without the e-mail code flow (createUser(db, overrides) in the house style): for tests
 * that need members but not their sessions. Log in through the API when a token is needed.
 */
export async function createMember(
  ctx: CashbackTestContext,
  overrides: { email?: string; inviterId?: number | null } = {},
): Promise<{ id: number; email: string }> {
  const email = overrides.email ?? nextEmail('cashback');
  const user = await insertUserUnlessTaken(ctx.db, {
    email,
    passwordHash: null,
    userCode: `EX${code(6)}`,
    inviteCode: code(8),
    inviterId: overrides.inviterId ?? null,
    createdAt: ctx.clock.now(),
  });
  if (!user) throw new Error('member factory: a code collided, run again');
  return { id: user.id, email };
}

const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

let uidCounter = 0;
/** A fresh UID, unique within the test run. */
export function nextUid(prefix = 'U'): string {
  uidCounter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${uidCounter}`;
}

/** micro-USDT from a decimal string, for readable tests: usdt('1.5') === 1_500_000n. */
export function usdt(value: string): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** A commission entry for a UID over [start, start + hours). */
export function figures(
  uid: string,
  start: Date,
  amounts: { fee: string; commission: string; volume?: string },
  hours = 24,
): CommissionEntry {
  return {
    uid,
    periodStart: start,
    periodEnd: new Date(start.getTime() + hours * HOUR_MS),
    tradingVolumeMicro: usdt(amounts.volume ?? '1000'),
    feeMicro: usdt(amounts.fee),
    commissionMicro: usdt(amounts.commission),
  };
}
