import { API, type TrackRequest, UNTRACKED_PATHS } from '@elex/contract';
import { apiCall } from '../api/api-client';

/** sessionStorage key of the channel the visitor landed with. */
const CHANNEL_KEY = 'channel';
/** The contract's limit on `channel` (TrackRequestSchema). */
const CHANNEL_MAX_LENGTH = 64;

/**
 * spec section 7: analytics carry the `channel` query value; the server fills a default when absent.
 * The value is on the landing address only: in-app navigation drops it, so it is kept in
 * sessionStorage for the rest of the visit (the tab). A later address that names a channel, such as
 * a new campaign link opened in the same tab, replaces it.
 */
function sessionChannel(search: string = window.location.search): string | undefined {
  const fromAddress = new URLSearchParams(search).get('channel')?.trim().slice(0, CHANNEL_MAX_LENGTH);
  try {
    if (fromAddress) {
      window.sessionStorage.setItem(CHANNEL_KEY, fromAddress);
      return fromAddress;
    }
    return window.sessionStorage.getItem(CHANNEL_KEY) || undefined;
  } catch {
    // Storage refused (private mode): the landing page view still carries the address's value.
    return fromAddress || undefined;
  }
}

/** First-party analytics: never blocks or bothers the user. */
export function track(event: TrackRequest['event'], page: string = window.location.pathname) {
  // Read before the untracked check, so a visit that lands on an untracked page keeps its channel.
  const channel = sessionChannel();
  if (UNTRACKED_PATHS.includes(page)) return;
  apiCall(
    API.track,
    { event, page, time: Date.now(), ...(channel ? { channel } : {}) },
    { silent: true, keepalive: true },
  ).catch(() => {
    // Analytics failures stay invisible by design.
  });
}
