import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AppDeps } from '../../deps.js';
import type { CommissionEntry } from '../../integrations/exchanges/types.js';
import { ManualClock } from '../../lib/clock.js';
import { findActiveUserByEmail, insertUserUnlessTaken } from '../auth/auth.service.js';
import { hashPassword } from '../auth/passwords.js';
import { bindExchangeUid, liveBindingOf } from '../bindings/bindings.service.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';

/**
 * `npm run ops -- demo:seed`: a clearly labelled demo member whose pages look lived-in, for
 * development and demos. Idempotent: a second run finds the members, the roster and the bindings in
 * place and every rebate a duplicate (a later day adds only the days since). Refused in production.
 *
 * The figures are made up (a fixed pseudo-random series) but flow through the real engine: roster
 * import, binding, one rebate import per day with the clock set to that day, settlement, invite bonus.
 */
export const DEMO = {
  email: 'demo@elex.local',
  friendEmail: 'demo-friend@elex.local',
  /** Printed by the command; meets the password rules (8-16 characters, a digit, a special character). */
  password: 'Demo#2026',
  /** EIP-55's own test vector: a well-formed address nobody uses. */
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  days: 90,
  bindings: [
    { owner: 'demo', platId: 1, uid: 'DEMO10001', registeredDaysAgo: 120 },
    { owner: 'demo', platId: 4, uid: 'DEMO40001', registeredDaysAgo: 110 },
    { owner: 'demo', platId: 2, uid: 'DEMO20001', registeredDaysAgo: 100 },
    // Registered within the 90 days: its first 3 weeks earn the speed-up rate.
    { owner: 'friend', platId: 3, uid: 'DEMO30001', registeredDaysAgo: 60 },
  ],
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DemoSeedResult {
  email: string;
  password: string;
  friendEmail: string;
  createdMembers: number;
  newBindings: number;
  rows: number;
  inserted: number;
}

/** mulberry32: a tiny deterministic generator, so each run produces the same figures for a day. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One UID's day: 5k-250k USDT traded at a 0.05 % average fee; the exchange pays us 70 % of the fee. */
function dayFigures(uid: string, dayStart: number): CommissionEntry {
  let seed = dayStart / DAY_MS;
  for (const char of uid) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  const random = generator(seed);
  const volumeMicro = BigInt(Math.floor(5_000 + random() * 245_000)) * 1_000_000n;
  const feeMicro = (volumeMicro * 5n) / 10_000n;
  return {
    uid,
    periodStart: new Date(dayStart),
    periodEnd: new Date(dayStart + DAY_MS),
    tradingVolumeMicro: volumeMicro,
    feeMicro,
    commissionMicro: (feeMicro * 70n) / 100n,
  };
}

async function ensureMember(deps: AppDeps, email: string, passwordHash: string, inviterId: number | null) {
  const existing = await findActiveUserByEmail(deps.db, email);
  if (existing) return { id: existing.id, created: false };
  const tag = email === DEMO.email ? 'DEMAAA' : 'DEMBBB';
  const user = await insertUserUnlessTaken(deps.db, {
    email,
    passwordHash,
    userCode: `EX${tag}`,
    inviteCode: `${tag}XX`,
    inviterId,
    createdAt: deps.clock.now(),
  });
  if (!user) throw new Error(`could not create ${email}: its user or invite code is taken`);
  return { id: user.id, created: true };
}

export async function seedDemo(deps: AppDeps): Promise<DemoSeedResult> {
  if (deps.config.env === 'production') {
    throw new Error(
      'demo:seed refuses to run with NODE_ENV=production (it creates a member with a known password)',
    );
  }
  await seedPartnerCatalog(deps.db);
  const now = deps.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const passwordHash = await hashPassword(DEMO.password);
  const demo = await ensureMember(deps, DEMO.email, passwordHash, null);
  const friend = await ensureMember(deps, DEMO.friendEmail, passwordHash, demo.id);
  const ownerId = { demo: demo.id, friend: friend.id };

  // The roster and the bindings, as of a few days after each registration.
  const clock = new ManualClock(now);
  const past = { ...deps, clock };
  let newBindings = 0;
  for (const binding of DEMO.bindings) {
    const registeredAt = new Date(today - binding.registeredDaysAgo * DAY_MS);
    clock.set(new Date(registeredAt.getTime() + 2 * DAY_MS));
    await ingestReferrals(past, binding.platId, [{ uid: binding.uid, registeredAt }], {
      kind: 'csv',
      label: 'demo:seed',
    });
    const live = await liveBindingOf(deps.db, binding.platId, binding.uid);
    if (live && live.userId !== ownerId[binding.owner]) {
      throw new Error(`demo UID ${binding.platId}:${binding.uid} is bound to another member`);
    }
    if (!live) {
      await bindExchangeUid(past, ownerId[binding.owner], {
        platId: binding.platId,
        uid: binding.uid,
        address: DEMO.address,
      });
      newBindings += 1;
    }
  }

  // One import per day, as the sync would bring it, settled the day after (the last day stays pending).
  let rows = 0;
  let inserted = 0;
  const delayMs = deps.config.settlementDelayHours * 60 * 60 * 1000;
  for (let day = DEMO.days; day >= 1; day -= 1) {
    const dayStart = today - day * DAY_MS;
    clock.set(new Date(Math.min(dayStart + DAY_MS + delayMs + 60 * 60 * 1000, now.getTime())));
    for (const binding of DEMO.bindings) {
      const registeredAt = today - binding.registeredDaysAgo * DAY_MS;
      if (dayStart < registeredAt) continue;
      const result = await ingestRebates(past, binding.platId, [dayFigures(binding.uid, dayStart)], {
        kind: 'csv',
        label: 'demo:seed',
      });
      rows += 1;
      inserted += result.inserted;
    }
  }
  return {
    email: DEMO.email,
    password: DEMO.password,
    friendEmail: DEMO.friendEmail,
    createdMembers: Number(demo.created) + Number(friend.created),
    newBindings,
    rows,
    inserted,
  };
}
