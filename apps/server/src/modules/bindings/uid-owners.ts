import type { Executor, Transaction } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { memberContact } from '../auth/auth.service.js';
import { loadPartners } from '../cashback/partners.js';
import { enqueueMail } from '../mail/outbox.js';
import { type LiveOwner, markListedWatches, selectLiveOwners } from './bindings.repository.js';
import { ownershipHoldEnd } from './ownership-hold.js';

/**
 * What the cashback engine asks of bindings: who holds a UID now, and mailing the members who waited
 * for a UID the roster now lists. Apart from bindings.service, which calls into the engine (the roster,
 * settling a UID), so that the engine and the binding flow do not import each other.
 */

/**
 * Who holds each of these UIDs now (settlement: whose inviter earns a bonus), with the binding and when
 * its ownership hold ends (null once an operator confirmed the owner): an invite bonus waits with it.
 */
export async function liveOwnersOf(
  db: Executor,
  platId: number,
  uids: readonly string[],
): Promise<Map<string, { userId: number; bindingId: number; holdEndsAt: Date | null }>> {
  const owners = await selectLiveOwners(db, platId, uids);
  return new Map(
    [...owners].map(([uid, owner]: [string, LiveOwner]) => [
      uid,
      { userId: owner.userId, bindingId: owner.bindingId, holdEndsAt: ownershipHoldEnd(owner) },
    ]),
  );
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
