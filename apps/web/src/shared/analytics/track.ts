import { type TrackRequest, UNTRACKED_PATHS } from '@elex/contract';
import { apiCall } from '../api/api-client';

/** spec: analytics carry the `channel` query value; the server fills a default when absent. */
function channelFromAddress(): string | undefined {
  return new URLSearchParams(window.location.search).get('channel') ?? undefined;
}

/** First-party analytics: never blocks or bothers the user. */
export function track(event: TrackRequest['event'], page: string = window.location.pathname) {
  if (UNTRACKED_PATHS.includes(page)) return;
  const channel = channelFromAddress();
  apiCall(
    '/elex/track',
    { event, page, time: Date.now(), ...(channel ? { channel } : {}) },
    { silent: true },
  ).catch(() => {
    // Analytics failures stay invisible by design.
  });
}
