import { API, State, UID_ELIGIBILITY, type UidEligibility } from '@elex/contract';
import { ApiError, apiCall } from '../../../shared/api/api-client';

/**
 * The server's answer about a UID; 'unknownExchange' when it knows no such exchange (1004), so the
 * search is not valid; 'unanswered' when it could not give an answer.
 */
export type UidSearchResult = UidEligibility | 'unknownExchange' | 'unanswered';

/**
 * `POST /elex/user/verifyExchangeUid` `{ platId, uid }` -> `{ eligibility }`: is this UID one of our
 * referrals at that exchange, and is it bound? Checked by hand rather than with zod (the search page
 * is small). Silent: the pages say the result in their own words. An unknown exchange is a wrong
 * search, not an open question; anything else that is not a clear answer (a rate limit, the network)
 * is 'unanswered' and the page gives the guidance without a verdict.
 */
export async function verifyExchangeUid(uid: string, platId: number): Promise<UidSearchResult> {
  try {
    const content = await apiCall<{ eligibility?: unknown } | null>(
      API.userVerifyExchangeUid,
      { uid, platId },
      { silent: true },
    );
    const value = content?.eligibility;
    return typeof value === 'string' && (UID_ELIGIBILITY as readonly string[]).includes(value)
      ? (value as UidEligibility)
      : 'unanswered';
  } catch (error) {
    // An expired session is the API client's to handle; every other failure leaves the question open.
    if (!(error instanceof ApiError) || error.kind === 'session') throw error;
    if (error.kind === 'refused' && error.state === State.NotFound) return 'unknownExchange';
    return 'unanswered';
  }
}
