import type { Executor, Transaction } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { memberContact } from '../auth/auth.service.js';
import { loadPartners } from '../cashback/partners.js';
import { enqueueMail } from '../mail/outbox.js';
import { markListedWatches, selectLastBindingEnd, selectLiveOwners } from './bindings.repository.js';
import { ownershipHeldUntil } from './ownership-hold.js';

/**
 * What the cashback engine asks of bindings: who holds a UID now, and mailing the members who waited
 * for a UID the roster now lists. Apart from bindings.service, which calls into the engine (the roster,
 * settling a UID), so that the engine and the binding flow do not import each other.
 */

/**
 * Who holds each of these UIDs now (settlement: whose inviter earns a bonus), with the binding and, when
 * `at` falls inside its ownership hold, when the hold ends: an invite bonus booked then waits with it.
 */
export async function liveOwnersOf(
  db: Executor,
  platId: number,
  uids: readonly string[],
  at: Date,
): Promise<Map<string, { userId: number; bindingId: number; holdEndsAt: Date | null }>> {
  const owners = await selectLiveOwners(db, platId, uids);
  return new Map(
    [...owners].map(([uid, owner]) => [
      uid,
      { userId: owner.userId, bindingId: owner.bindingId, holdEndsAt: ownershipHeldUntil(owner, at) },
    ]),
  );
}

/**
 * The time settlement stamps a credit to these UIDs with, asked under their cashback account locks:
 * `now` (when the run began), or just after the latest end of a binding of theirs when that is later.
 * A deletion ends a binding under the UID's lock, so a credit that waited for it lands after it and
 * must read so: the next holder's view starts at that end and shows what settled after it (found in
 * review, 2026-11-29: a run that began before the deletion stamped its credit before it, and the next
 * holder saw the balance without the record or total that explain it).
 */
export async function creditStampOf(tx: Transaction, platId: number, uids: readonly string[], now: Date) {
  const ended = await selectLastBindingEnd(tx, platId, uids);
  return ended && ended.getTime() >= now.getTime() ? new Date(ended.getTime() + 1) : now;
}

/**
 * Called by every roster import in its transaction: mails each member who waited for a UID of this
 * exchange that is in the roster now ('uidListed'), once.
 */
export async function notifyListedUids(tx: Transaction, deps: AppDeps, platId: number): Promise<number> {
  const listed = await markListedWatches(tx, platId, deps.clock.now());
  if (listed.length === 0) return 0;
  const exchange = (await loadPartners(deps)).get(platId)?.name ?? String(platId);
  let mailed = 0;
  for (const watch of listed) {
    const contact = await memberContact(tx, watch.userId);
    if (!contact) continue;
    await enqueueMail(tx, deps, {
      template: 'uidListed',
      locale: contact.locale,
      to: contact.email,
      params: { exchange, platId, uid: watch.uid },
      userId: watch.userId,
    });
    mailed += 1;
  }
  return mailed;
}
