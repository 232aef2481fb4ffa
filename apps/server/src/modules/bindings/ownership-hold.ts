import { OWNERSHIP } from '@elex/contract';
import type { ExchangeBindingRow } from './bindings.tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type HeldBinding = Pick<ExchangeBindingRow, 'boundAt' | 'ownershipVerifiedAt'>;

/**
 * When a binding's ownership hold ends (docs/support.md): OWNERSHIP.holdDays after it was bound, or
 * null once an operator confirmed the owner. No affiliate API proves who controls an account, so a
 * stranger who binds someone's UID must not be able to withdraw before its owner has had time to notice
 * (a refused binding) and dispute it; the invite bonuses its records pay wait with it.
 */
function ownershipHoldEnd(binding: HeldBinding): Date | null {
  if (binding.ownershipVerifiedAt) return null;
  return new Date(binding.boundAt.getTime() + OWNERSHIP.holdDays * DAY_MS);
}

/** Until when a binding's money is held now; null once it may be withdrawn. */
export function ownershipHeldUntil(binding: HeldBinding, now: Date): Date | null {
  const end = ownershipHoldEnd(binding);
  return end && end.getTime() > now.getTime() ? end : null;
}
